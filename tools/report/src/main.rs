// SPDX-License-Identifier: GPL-2.0
//! report: the A/B experiment's results as a compare-kernels style table,
//! a JSON summary and PNG plots.  See `report --help`.

use report::cli::{self, Arg};
use report::summary::{meta_ratios, summarize, Ratio};
use report::table::{render, CounterView, View};
use report::{headline, input, plot, plot_runs};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
usage: report [--clock tcg|icount|NAME] [--out DIR] [--font TTF] [--no-plots]
              [--counters per-second|per-run] [--all-counters]
              [--ratio NAME=NUM/DEN]... [--rst FILE] [--quiet] RESULTS.jsonl|-

Reads the RESULT lines of tools/guest/in/experiment (the `RESULT ` prefix is
optional; other console lines are skipped) and prints first the headline:
per case its two primary measures (the case table's effect and benefit,
the meta line's \"primary\") off and on, the difference with its 95% CI,
Welch's and the paired t-test and whether the seed's claim is reproduced;
then a table like mmtests' compare-kernels: per case and workload,
baseline = feature off, compare = feature on, Amean (latencies, times) or
Hmean (rates), the difference in percent (positive = better) and *x.xx%*
where Welch's two-sample t-test gives p < 0.05, with the counters per
second of run (or per run) beside them.

  --clock NAME   the clock the results were taken on (default: the meta
                 line's \"clock\", else \"unknown\")
  --out DIR      also write DIR/report.txt, DIR/report.json and the plots
                 DIR/headline.png (every run of the headline's measures
                 as a dot beside each state's mean),
                 DIR/latency-CASE-WORKLOAD.png, DIR/counters-CASE-WORKLOAD.png
                 DIR/cdf-CASE-WORKLOAD.png (latency CDFs from the
                 workload's histogram, schbench) and DIR/occupancy-CASE.png
                 (per-CPU runnable tasks over one run in each state);
                 with schedstat.jsonl beside the results (each run's raw
                 /proc/schedstat before and after it), DIR/schedstat.txt:
                 the deltas per state under perf sched stats' names
  --font TTF     font for the plots' text (default
                 /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf, package
                 fonts-dejavu-core); missing: plots without text
  --no-plots     no PNGs
  --counters V   counters in the table per second of run (default) or per run
  --all-counters every counter in the table and plots, not only those of the
                 case's mechanism (the meta line's \"focus\" prefixes)
  --ratio N=A/B  add counter ratio N = A/B per run, besides the meta line's
                 \"ratios\" (e.g. groups_per_newidle_scan=
                 newidle_groups_scanned/newidle_scans)
  --rst FILE     write the headline as reStructuredText to FILE
  --resolution   print only what the runs so far can resolve: one JSON line
                 per headline row (case, role, workload, metric, n, mde,
                 equiv_floor; tools/measure/experiment --mde reads it)
  --quiet        do not print the table";

struct Args {
    clock: Option<String>,
    out: Option<PathBuf>,
    font: PathBuf,
    plots: bool,
    view: View,
    ratios: Vec<Ratio>,
    rst: Option<PathBuf>,
    resolution: bool,
    quiet: bool,
    input: PathBuf,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        clock: None,
        out: None,
        font: PathBuf::from(plot::DEFAULT_FONT),
        plots: true,
        view: View::default(),
        ratios: Vec::new(),
        rst: None,
        resolution: false,
        quiet: false,
        input: PathBuf::new(),
    };
    let mut args = cli::Args::from_env();
    while let Some(arg) = args.next() {
        let name = match arg {
            Arg::Help => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            Arg::Pos(s) => {
                args.positional(s, "input file")?;
                continue;
            }
            Arg::Opt(name) => name,
        };
        match name.as_str() {
            "--clock" => a.clock = Some(args.value(&name)?),
            "--out" => a.out = Some(PathBuf::from(args.value(&name)?)),
            "--font" => a.font = PathBuf::from(args.value(&name)?),
            "--no-plots" => a.plots = false,
            "--all-counters" => a.view.all_counters = true,
            "--quiet" => a.quiet = true,
            "--resolution" => a.resolution = true,
            "--rst" => a.rst = Some(PathBuf::from(args.value(&name)?)),
            "--counters" => {
                a.view.counters = match args.value(&name)?.as_str() {
                    "per-second" => CounterView::PerSecond,
                    "per-run" => CounterView::PerRun,
                    v => return Err(format!("--counters wants per-second or per-run, not '{v}'")),
                }
            }
            "--ratio" => a.ratios.push(args.value(&name)?.parse()?),
            _ => return Err(cli::unknown(&name)),
        }
    }
    a.input = args.take_positional("RESULTS.jsonl")?;
    Ok(a)
}

fn run(a: &Args) -> Result<(), String> {
    let text = if a.input.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).map_err(|e| format!("stdin: {e}"))?
    } else {
        std::fs::read_to_string(&a.input).map_err(|e| format!("{}: {e}", a.input.display()))?
    };
    let inp = input::parse(&text).map_err(|e| format!("{}: {e}", a.input.display()))?;
    if inp.runs.is_empty() {
        return Err(format!(
            "{}: no results (no RESULT lines with a \"case\")",
            a.input.display()
        ));
    }
    let clock = a
        .clock
        .clone()
        .or_else(|| {
            inp.meta
                .get("clock")
                .and_then(|v| v.as_str())
                .map(str::to_string)
        })
        .unwrap_or_else(|| "unknown".into());
    // The meta line's ratios, then --ratio ones (which win by name).
    let mut ratios = meta_ratios(&inp.meta);
    ratios.retain(|r| !a.ratios.iter().any(|q| q.name == r.name));
    ratios.extend(a.ratios.iter().cloned());
    let head = headline::headline(&inp, &ratios);
    if a.resolution {
        for c in &head {
            for r in &c.rows {
                let line = serde_json::json!({
                    "case": c.case, "role": r.role, "workload": r.spec.workload,
                    "metric": r.spec.metric, "n": r.off.len().min(r.on.len()),
                    "mde": r.resolution.map(|x| x.mde),
                    "equiv_floor": r.resolution.map(|x| x.equiv_floor),
                });
                println!("{line}");
            }
        }
        return Ok(());
    }
    let s = summarize(&inp, &clock, &ratios);
    let mut table = String::new();
    if !head.is_empty() {
        table += &headline::render_text(&head, &inp);
        table.push('\n');
    }
    table += &render(&s, a.view);
    if let Some(rst) = &a.rst {
        std::fs::write(rst, headline::render_rst(&head, &inp))
            .map_err(|e| format!("{}: {e}", rst.display()))?;
    }
    if !a.quiet {
        print!("{table}");
    }
    let Some(out) = &a.out else {
        return Ok(());
    };
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let write = |name: &str, data: &str| {
        let p = out.join(name);
        std::fs::write(&p, data).map_err(|e| format!("{}: {e}", p.display()))
    };
    write("report.txt", &table)?;
    let mut json = serde_json::to_value(&s).map_err(|e| e.to_string())?;
    json["headline"] = serde_json::to_value(&head).map_err(|e| e.to_string())?;
    let json = serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?;
    write("report.json", &(json + "\n"))?;
    // The raw /proc/schedstat of each run, if tools/measure/experiment kept it: a
    // side table, so a file it cannot read is a warning, not a failure.
    let raw = a.input.with_file_name("schedstat.jsonl");
    if a.input.as_os_str() != "-" && raw.exists() {
        match std::fs::read_to_string(&raw)
            .map_err(|e| e.to_string())
            .and_then(|t| report::schedstat::render(&t))
        {
            Ok(t) => write("schedstat.txt", &t)?,
            Err(e) => eprintln!("report: warning: {}: {e}: no schedstat.txt", raw.display()),
        }
    }
    if a.plots {
        let text = plot::load_font(&a.font);
        if !text {
            eprintln!(
                "report: font {} missing or unreadable (package fonts-dejavu-core): plots drawn without text",
                a.font.display()
            );
        }
        let mut files =
            plot::all(out, &s, text, a.view.all_counters).map_err(|e| format!("plotting: {e}"))?;
        let perr = |e: Box<dyn std::error::Error>| format!("plotting: {e}");
        if !head.is_empty() {
            let p = out.join("headline.png");
            plot_runs::headline(&p, &head, text).map_err(perr)?;
            files.push(p);
        }
        let floor_p99 = inp
            .meta
            .get("floor")
            .and_then(|f| f.get("p99"))
            .and_then(|v| v.as_f64());
        for c in &s.cases {
            if plot_runs::has_occupancy(&inp, &c.case) {
                let p = out.join(format!("occupancy-{}.png", plot::slug(&c.case)));
                plot_runs::occupancy(&p, &inp, &c.case, &c.feature, text).map_err(perr)?;
                files.push(p);
            }
            for w in &c.workloads {
                if plot_runs::has_hist(&inp, &c.case, &w.workload) {
                    let p = out.join(format!(
                        "cdf-{}-{}.png",
                        plot::slug(&c.case),
                        plot::slug(&w.workload)
                    ));
                    plot_runs::cdf(&p, &inp, &c.case, &c.feature, &w.workload, floor_p99, text)
                        .map_err(perr)?;
                    files.push(p);
                }
            }
        }
        if !a.quiet {
            if files.is_empty() {
                println!("\n(no plots: no latency percentiles and no counters in these results)");
            } else {
                println!();
                for f in files {
                    println!("plot: {}", f.display());
                }
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let a = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("report: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&a) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("report: {e}");
            ExitCode::FAILURE
        }
    }
}
