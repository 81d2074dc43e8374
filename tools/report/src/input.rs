// SPDX-License-Identifier: GPL-2.0
//! Reading the experiment's JSONL: the RESULT lines of
//! tools/guest/in/experiment, with or without their `RESULT ` prefix.

use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;

/// The feature state of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    On,
    Off,
}

/// One workload run.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub case: String,
    pub feature: String,
    pub feature_missing: bool,
    pub state: State,
    pub iter: u64,
    pub workload: String,
    pub cmd: String,
    /// The numeric fields of the workload's JSON line.
    pub metrics: BTreeMap<String, f64>,
    /// The project's counters and, as `kstat.NAME`, the run's `kstat`
    /// (deltas of /proc/schedstat, /proc/interrupts, ...).
    pub counters: BTreeMap<String, f64>,
    pub duration_s: f64,
    pub error: Option<String>,
    /// The workload's latency histogram, if its JSON line has one
    /// (`"hist":[[upper_us,count],...]`, schbench): for CDFs.
    pub hist: Vec<(f64, f64)>,
    /// Per-CPU runnable counts over the run (`"occupancy":[[t,n0,n1,...]]`,
    /// the first llc_spread run of each state): time in s, then one count
    /// per CPU.
    pub occupancy: Vec<Vec<f64>>,
    /// What the host's CPUs did apart from running the guest during the
    /// run, as tools/measure/experiment measured it (`"host":{...}`), if it did.
    pub host: Option<Host>,
}

/// The host's side of a run (tools/measure/experiment's `HostMeter`).
#[derive(Clone, Debug, PartialEq)]
pub struct Host {
    /// CPU time of other work over the run's wall time times the host's
    /// CPUs.
    pub share: f64,
    /// The time the hypervisor below the host gave its CPUs to others
    /// (steal), over the same.
    pub steal_share: Option<f64>,
    /// `keep`, `busy` (above the limit, kept after the last repeat) or
    /// `redo` (above the limit and run again: not a result).
    pub verdict: String,
}

/// A whole results file.
#[derive(Clone, Debug, Default)]
pub struct Input {
    /// Union of the `{"meta":{...}}` lines, later lines winning.
    pub meta: Map<String, Value>,
    /// The `{"end":{...}}` line, if any.
    pub end: Option<Value>,
    /// The runs, less those the host had run again.
    pub runs: Vec<Run>,
    /// The runs the host had run again because it was busy with other work
    /// during them: recorded, never part of a result.
    pub discarded: Vec<Run>,
}

#[derive(Debug, PartialEq)]
pub struct ParseError {
    pub line: usize,
    pub msg: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.msg)
    }
}

impl std::error::Error for ParseError {}

fn num_map(v: Option<&Value>, what: &str) -> Result<BTreeMap<String, f64>, String> {
    let mut out = BTreeMap::new();
    match v {
        None | Some(Value::Null) => {}
        Some(Value::Object(m)) => {
            for (k, v) in m {
                if let Some(x) = v.as_f64() {
                    out.insert(k.clone(), x);
                }
            }
        }
        Some(_) => return Err(format!("\"{what}\" is not an object")),
    }
    Ok(out)
}

fn str_field(o: &Map<String, Value>, k: &str) -> Result<String, String> {
    match o.get(k) {
        Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
        Some(_) => Err(format!("\"{k}\" is not a non-empty string")),
        None => Err(format!("\"{k}\" missing")),
    }
}

fn parse_run(o: &Map<String, Value>) -> Result<Run, String> {
    let state = match str_field(o, "state")?.as_str() {
        "on" => State::On,
        "off" => State::Off,
        s => return Err(format!("\"state\" is \"{s}\", not \"on\" or \"off\"")),
    };
    Ok(Run {
        case: str_field(o, "case")?,
        feature: str_field(o, "feature")?,
        feature_missing: o
            .get("feature_missing")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        state,
        iter: o.get("iter").and_then(Value::as_u64).unwrap_or(0),
        workload: str_field(o, "workload")?,
        cmd: o
            .get("cmd")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        metrics: num_map(o.get("metrics"), "metrics")?,
        counters: {
            // The kernel's own accounting joins the counters as kstat.NAME.
            let mut c = num_map(o.get("counters"), "counters")?;
            for (k, v) in num_map(o.get("kstat"), "kstat")? {
                c.insert(format!("kstat.{k}"), v);
            }
            c
        },
        duration_s: o.get("duration_s").and_then(Value::as_f64).unwrap_or(0.0),
        error: o.get("error").and_then(Value::as_str).map(str::to_string),
        hist: o
            .get("metrics")
            .and_then(|m| m.get("hist"))
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|b| {
                        let b = b.as_array()?;
                        Some((b.first()?.as_f64()?, b.get(1)?.as_f64()?))
                    })
                    .collect()
            })
            .unwrap_or_default(),
        occupancy: o
            .get("occupancy")
            .and_then(Value::as_array)
            .map(|rows| {
                rows.iter()
                    .filter_map(|r| {
                        let r: Vec<f64> = r.as_array()?.iter().filter_map(Value::as_f64).collect();
                        (r.len() >= 2).then_some(r)
                    })
                    .collect()
            })
            .unwrap_or_default(),
        host: o.get("host").and_then(Value::as_object).and_then(|h| {
            Some(Host {
                share: h.get("share")?.as_f64()?,
                steal_share: h.get("steal_share").and_then(Value::as_f64),
                verdict: h.get("verdict")?.as_str()?.to_string(),
            })
        }),
    })
}

/// Parses the results.  Blank lines, `#` lines and console lines that
/// neither start with `RESULT ` nor with `{` are skipped, so a whole
/// console log can be read too; a RESULT or JSON line that does not parse
/// is an error naming its line.
pub fn parse(text: &str) -> Result<Input, ParseError> {
    let mut input = Input::default();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r').trim();
        let json = if let Some(rest) = line.strip_prefix("RESULT ") {
            rest.trim()
        } else if line.starts_with('{') {
            line
        } else {
            continue;
        };
        let err = |msg: String| ParseError { line: i + 1, msg };
        let v: Value = serde_json::from_str(json).map_err(|e| err(format!("bad JSON: {e}")))?;
        let o = v
            .as_object()
            .ok_or_else(|| err("not a JSON object".into()))?;
        if let Some(m) = o.get("meta") {
            let m = m
                .as_object()
                .ok_or_else(|| err("\"meta\" is not an object".into()))?;
            input
                .meta
                .extend(m.iter().map(|(k, v)| (k.clone(), v.clone())));
        } else if let Some(e) = o.get("end") {
            input.end = Some(e.clone());
        } else if o.contains_key("case") {
            let run = parse_run(o).map_err(err)?;
            if run.host.as_ref().is_some_and(|h| h.verdict == "redo") {
                input.discarded.push(run);
            } else {
                input.runs.push(run);
            }
        } else {
            return Err(err(
                "neither a run (\"case\") nor \"meta\" nor \"end\"".into()
            ));
        }
    }
    Ok(input)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"RUNGUEST: START
RESULT {"meta":{"kernel":"6.12.117","cpus":8,"quick":true}}
# [1/2] rust_lb iter 1/1 wakelat on (RUST_LB), ~3s left
RESULT {"case":"rust_lb","feature":"RUST_LB","feature_missing":false,"state":"on","iter":1,"workload":"wakelat","cmd":"wakelat -r 1 -j","metrics":{"bench":"wakelat","p50":333.8,"rps":630.0,"runtime_s":1},"counters":{"calls":12},"duration_s":1.65}

{"case":"rust_lb","feature":"RUST_LB","state":"off","iter":1,"workload":"wakelat","metrics":{},"counters":{},"duration_s":1.5,"error":"exit 1"}
RESULT {"end":{"runs":2,"failed":1,"elapsed_s":3.2}}
"#;

    #[test]
    fn parses_results_and_skips_console_noise() {
        let inp = parse(SAMPLE).unwrap();
        assert_eq!(inp.meta["cpus"], 8);
        assert_eq!(inp.end.as_ref().unwrap()["failed"], 1);
        assert_eq!(inp.runs.len(), 2);
        let r = &inp.runs[0];
        assert_eq!(
            (r.case.as_str(), r.state, r.iter),
            ("rust_lb", State::On, 1)
        );
        assert_eq!(r.metrics["p50"], 333.8);
        assert_eq!(r.metrics["runtime_s"], 1.0);
        assert!(!r.metrics.contains_key("bench"), "strings are not metrics");
        assert_eq!(r.counters["calls"], 12.0);
        assert_eq!(r.duration_s, 1.65);
        assert_eq!(r.error, None);
        let r = &inp.runs[1];
        assert_eq!(r.state, State::Off);
        assert!(!r.feature_missing, "absent feature_missing is false");
        assert_eq!(r.error.as_deref(), Some("exit 1"));
        assert!(r.metrics.is_empty() && r.counters.is_empty());
    }

    #[test]
    fn bad_lines_name_their_line() {
        let e = parse("# x\nRESULT {\"case\":\"a\",").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.msg.starts_with("bad JSON"), "{}", e.msg);

        let e = parse(r#"{"case":"a","feature":"A","state":"maybe","workload":"w"}"#).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.msg.contains("maybe"), "{}", e.msg);

        let e =
            parse("\n\nRESULT {\"case\":\"a\",\"state\":\"on\",\"workload\":\"w\"}").unwrap_err();
        assert_eq!((e.line, e.msg.as_str()), (3, "\"feature\" missing"));

        let e =
            parse(r#"RESULT {"case":"a","feature":"A","state":"on","workload":"w","metrics":[1]}"#)
                .unwrap_err();
        assert!(e.msg.contains("metrics"), "{}", e.msg);

        let e = parse("RESULT [1,2]").unwrap_err();
        assert_eq!(e.msg, "not a JSON object");
        let e = parse("RESULT {\"x\":1}").unwrap_err();
        assert!(e.msg.starts_with("neither"), "{}", e.msg);
    }

    #[test]
    fn runs_the_host_had_run_again_are_set_apart() {
        let run = |verdict: &str, p50: f64| {
            format!(
                r#"RESULT {{"case":"c","feature":"F","state":"on","iter":1,"workload":"w","metrics":{{"p50":{p50}}},"host":{{"wall_s":2.0,"other_cpu_s":0.8,"share":0.2,"verdict":"{verdict}"}}}}"#
            )
        };
        let inp = parse(&[run("redo", 9.0), run("busy", 1.0), SAMPLE.into()].join("\n")).unwrap();
        assert_eq!(inp.discarded.len(), 1);
        assert_eq!(inp.discarded[0].metrics["p50"], 9.0);
        assert_eq!(inp.runs.len(), 3);
        let h = inp.runs[0].host.as_ref().unwrap();
        assert_eq!((h.share, h.verdict.as_str()), (0.2, "busy"));
        assert_eq!(inp.runs[1].host, None, "a run without the host's record");
    }

    #[test]
    fn empty_input_is_empty() {
        let inp = parse("").unwrap();
        assert!(inp.runs.is_empty() && inp.meta.is_empty() && inp.end.is_none());
    }
}
