// SPDX-License-Identifier: GPL-2.0
//! The raw `/proc/schedstat` of each run, before and after it
//! (`schedstat.jsonl` beside `results.jsonl`, written by tools/measure/experiment),
//! as deltas under the field names of `perf sched stats report`
//! (tools/lib/perf/include/perf/schedstat-{cpu,domain}-v16.h), so that a
//! run here reads like a user's own `perf sched stats` of theirs.
//!
//! Version 16 is 6.12's format: per CPU `cpuN` and 9 fields, then per
//! domain `domainN MASK` and 3 x 8 load-balance fields (busy, idle,
//! newidle: the order of `enum cpu_idle_type` from v16 on) and 12 more.

use crate::input::State;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The per-CPU fields of version 16, in the file's order.
pub const CPU_FIELDS: [&str; 9] = [
    "yld_count",
    "array_exp",
    "sched_count",
    "sched_goidle",
    "ttwu_count",
    "ttwu_local",
    "rq_cpu_time",
    "run_delay",
    "pcount",
];

/// The load-balance fields repeated per idle type, in the file's order.
const LB_FIELDS: [&str; 8] = [
    "lb_count",
    "lb_balanced",
    "lb_failed",
    "lb_imbalance",
    "lb_gained",
    "lb_hot_gained",
    "lb_nobusyq",
    "lb_nobusyg",
];

/// What follows the load-balance fields in a domain line.
const DOMAIN_TAIL: [&str; 12] = [
    "alb_count",
    "alb_failed",
    "alb_pushed",
    "sbe_count",
    "sbe_balanced",
    "sbe_pushed",
    "sbf_count",
    "sbf_balanced",
    "sbf_pushed",
    "ttwu_wake_remote",
    "ttwu_move_affine",
    "ttwu_move_balance",
];

/// The per-domain fields of version 16, in the file's order (36).
pub fn domain_fields() -> Vec<String> {
    ["busy", "idle", "newidle"]
        .iter()
        .flat_map(|t| LB_FIELDS.iter().map(move |f| format!("{t}_{f}")))
        .chain(DOMAIN_TAIL.iter().map(|f| f.to_string()))
        .collect()
}

/// One `/proc/schedstat`: per CPU its fields, per (CPU, domain level) its
/// fields.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    pub cpu: BTreeMap<u32, Vec<u64>>,
    pub domain: BTreeMap<(u32, u32), Vec<u64>>,
}

fn numbers(fields: &[&str], want: usize, what: &str) -> Result<Vec<u64>, String> {
    if fields.len() != want {
        return Err(format!("{what}: {} fields, want {want}", fields.len()));
    }
    fields
        .iter()
        .map(|f| {
            f.parse()
                .map_err(|_| format!("{what}: '{f}' is not a count"))
        })
        .collect()
}

/// Parses a version 16 `/proc/schedstat`.
pub fn parse(text: &str) -> Result<Snapshot, String> {
    let mut s = Snapshot::default();
    let mut lines = text.lines();
    match lines.next().map(str::trim) {
        Some("version 16") => {}
        v => return Err(format!("not version 16 of /proc/schedstat: {v:?}")),
    }
    let ndom = domain_fields().len();
    let mut cpu = None;
    for line in lines {
        let f: Vec<&str> = line.split_whitespace().collect();
        let Some(head) = f.first() else { continue };
        if let Some(n) = head.strip_prefix("cpu") {
            let n: u32 = n.parse().map_err(|_| format!("bad line '{line}'"))?;
            s.cpu.insert(n, numbers(&f[1..], CPU_FIELDS.len(), head)?);
            cpu = Some(n);
        } else if let Some(l) = head.strip_prefix("domain") {
            let l: u32 = l.parse().map_err(|_| format!("bad line '{line}'"))?;
            let c = cpu.ok_or_else(|| format!("{head} before any cpu line"))?;
            // domainN MASK fields...
            s.domain
                .insert((c, l), numbers(f.get(2..).unwrap_or(&[]), ndom, head)?);
        }
    }
    Ok(s)
}

/// after - before, field by field (0 where a counter went backwards or
/// a CPU or domain is missing from one side).
pub fn delta(before: &Snapshot, after: &Snapshot) -> Snapshot {
    fn sub<K: Ord + Copy>(
        a: &BTreeMap<K, Vec<u64>>,
        b: &BTreeMap<K, Vec<u64>>,
    ) -> BTreeMap<K, Vec<u64>> {
        b.iter()
            .filter_map(|(k, v)| {
                let u = a.get(k)?;
                Some((
                    *k,
                    v.iter().zip(u).map(|(x, y)| x.saturating_sub(*y)).collect(),
                ))
            })
            .collect()
    }
    Snapshot {
        cpu: sub(&before.cpu, &after.cpu),
        domain: sub(&before.domain, &after.domain),
    }
}

fn add_into<K: Ord + Copy>(acc: &mut BTreeMap<K, Vec<u64>>, d: &BTreeMap<K, Vec<u64>>) {
    for (k, v) in d {
        let a = acc.entry(*k).or_insert_with(|| vec![0; v.len()]);
        for (x, y) in a.iter_mut().zip(v) {
            *x += y;
        }
    }
}

/// One run's line of schedstat.jsonl.
struct RunDelta {
    case: String,
    workload: String,
    state: State,
    delta: Snapshot,
}

/// Reads schedstat.jsonl: each kept run's delta (runs the host had run
/// again are left out, as in the report).
fn read(text: &str) -> Result<Vec<RunDelta>, String> {
    let mut out = Vec::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let err = |m: String| format!("line {}: {m}", i + 1);
        let v: Value = serde_json::from_str(line).map_err(|e| err(e.to_string()))?;
        if v.get("verdict").and_then(Value::as_str) == Some("redo") {
            continue;
        }
        let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        let state = match s("state").as_str() {
            "on" => State::On,
            "off" => State::Off,
            x => return Err(err(format!("state '{x}'"))),
        };
        let before = parse(&s("before")).map_err(|e| err(format!("before: {e}")))?;
        let after = parse(&s("after")).map_err(|e| err(format!("after: {e}")))?;
        out.push(RunDelta {
            case: s("case"),
            workload: s("workload"),
            state,
            delta: delta(&before, &after),
        });
    }
    Ok(out)
}

/// The report: per case and workload, the deltas summed over the runs of
/// each state, per CPU (its fields) and per domain level (summed over
/// the CPUs), under perf's names.
pub fn render(text: &str) -> Result<String, String> {
    let runs = read(text)?;
    let mut groups: Vec<(String, String)> = Vec::new();
    for r in &runs {
        let k = (r.case.clone(), r.workload.clone());
        if !groups.contains(&k) {
            groups.push(k);
        }
    }
    let dnames = domain_fields();
    let mut o = String::new();
    let _ = writeln!(
        o,
        "/proc/schedstat (version 16) over the runs, as perf sched stats report names it: \
         per case and workload, the deltas summed over the runs of each state"
    );
    for (case, wl) in &groups {
        let mut sum: [Snapshot; 2] = Default::default();
        let mut n = [0usize; 2];
        for r in runs.iter().filter(|r| &r.case == case && &r.workload == wl) {
            let i = usize::from(r.state == State::On);
            add_into(&mut sum[i].cpu, &r.delta.cpu);
            add_into(&mut sum[i].domain, &r.delta.domain);
            n[i] += 1;
        }
        let _ = writeln!(o, "\n=== {case} / {wl} ({} runs off, {} on)", n[0], n[1]);
        // Per CPU, off then on.
        let _ = write!(o, "{:<6} {:<5}", "cpu", "state");
        for f in CPU_FIELDS.iter().filter(|f| **f != "array_exp") {
            let _ = write!(o, " {f:>14}");
        }
        o.push('\n');
        let cpus: Vec<u32> = sum[0]
            .cpu
            .keys()
            .chain(sum[1].cpu.keys())
            .copied()
            .collect();
        let mut cpus = cpus;
        cpus.sort_unstable();
        cpus.dedup();
        for c in cpus {
            for (i, st) in ["off", "on"].iter().enumerate() {
                let Some(v) = sum[i].cpu.get(&c) else {
                    continue;
                };
                let _ = write!(o, "{:<6} {st:<5}", format!("cpu{c}"));
                for (f, x) in CPU_FIELDS.iter().zip(v) {
                    if *f != "array_exp" {
                        let _ = write!(o, " {x:>14}");
                    }
                }
                o.push('\n');
            }
        }
        // Per domain level, summed over CPUs.
        let mut level: [BTreeMap<u32, Vec<u64>>; 2] = Default::default();
        for i in 0..2 {
            for ((_, l), v) in &sum[i].domain {
                let a = level[i].entry(*l).or_insert_with(|| vec![0; v.len()]);
                for (x, y) in a.iter_mut().zip(v) {
                    *x += y;
                }
            }
        }
        let mut levels: Vec<u32> = level[0].keys().chain(level[1].keys()).copied().collect();
        levels.sort_unstable();
        levels.dedup();
        let _ = write!(o, "\n{:<20}", "domain (all CPUs)");
        for l in &levels {
            let _ = write!(o, " {:>12} {:>12}", format!("domain{l} off"), "on");
        }
        o.push('\n');
        for (k, f) in dnames.iter().enumerate() {
            let _ = write!(o, "{f:<20}");
            for l in &levels {
                for lv in &level {
                    let x = lv.get(l).and_then(|v| v.get(k)).copied().unwrap_or(0);
                    let _ = write!(o, " {x:>12}");
                }
            }
            o.push('\n');
        }
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snap(cpu_ttwu: u64, d0_newidle: u64) -> String {
        let mut dom = vec![0u64; 36];
        dom[0] = 1; // busy_lb_count
        dom[16] = d0_newidle; // newidle_lb_count
        dom[35] = 7; // ttwu_move_balance
        let dom: Vec<String> = dom.iter().map(u64::to_string).collect();
        format!(
            "version 16\ntimestamp 4294\ncpu0 0 0 10 5 {cpu_ttwu} 2 1000 500 3\n\
             domain0 00000003 {}\ndomain1 000000ff {}\ncpu1 0 0 1 1 1 1 1 1 1\n",
            dom.join(" "),
            dom.join(" ")
        )
    }

    #[test]
    fn parses_version_16_by_name() {
        let s = parse(&snap(40, 9)).unwrap();
        assert_eq!(
            s.cpu[&0][CPU_FIELDS.iter().position(|f| *f == "ttwu_count").unwrap()],
            40
        );
        let names = domain_fields();
        assert_eq!(names.len(), 36);
        assert_eq!(names[16], "newidle_lb_count");
        assert_eq!(names[35], "ttwu_move_balance");
        assert_eq!(s.domain[&(0, 0)][16], 9);
        assert_eq!(s.domain.len(), 2, "cpu1 has no domain lines");
        assert!(parse("version 15\n").is_err());
        assert!(parse("version 16\ncpu0 1 2 3\n").is_err());
    }

    #[test]
    fn deltas_are_summed_per_state_and_level() {
        let line = |st: &str, a: u64, b: u64, verdict: &str| {
            serde_json::json!({"case": "c", "workload": "w", "state": st, "verdict": verdict,
                               "before": snap(a, 0), "after": snap(b, 5)})
            .to_string()
        };
        let text = [
            line("off", 10, 30, "keep"),
            line("off", 0, 5, "keep"),
            line("on", 0, 1000, "redo"),
            line("on", 1, 2, "keep"),
        ]
        .join("\n");
        let r = render(&text).unwrap();
        assert!(r.contains("=== c / w (2 runs off, 1 on)"), "{r}");
        // cpu0 off: ttwu_count 20 + 5; on: 1 (the redone run left out).
        let cpu0: Vec<&str> = r.lines().filter(|l| l.starts_with("cpu0 ")).collect();
        assert_eq!(cpu0.len(), 2);
        assert_eq!(cpu0[0].split_whitespace().nth(5), Some("25"), "{}", cpu0[0]);
        assert_eq!(cpu0[1].split_whitespace().nth(5), Some("1"), "{}", cpu0[1]);
        // newidle_lb_count of domain0: 5 per run, one CPU: off 10, on 5.
        let nl = r
            .lines()
            .find(|l| l.starts_with("newidle_lb_count"))
            .unwrap();
        assert_eq!(
            nl.split_whitespace().skip(1).take(2).collect::<Vec<_>>(),
            ["10", "5"]
        );
    }
}
