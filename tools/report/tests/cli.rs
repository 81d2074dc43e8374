// SPDX-License-Identifier: GPL-2.0
//! The `report` binary end to end: a results file in, the table, JSON and
//! plots out; bad input and options fail with a message.

use std::path::PathBuf;
use std::process::Command;

fn results() -> String {
    let mut s = String::from(
        r#"RESULT {"meta":{"clock":"icount","kernel":"6.12.117","cpus":8,"iterations":3,"duration_s":3,"counters_file":true,"focus":{"rd_overload":"newidle_skipped"},"ratios":"skip_share=newidle_skipped_not_overloaded/rust_calls_newidle_skip"}}
"#,
    );
    for (i, state) in ["on", "off", "off", "on", "on", "off"].iter().enumerate() {
        let on = *state == "on";
        let tps = if on {
            1200.0 + i as f64
        } else {
            1000.0 - i as f64
        };
        let skipped = if on { 900 + i } else { 0 };
        s.push_str(&format!(
            "RESULT {{\"case\":\"rd_overload\",\"feature\":\"RD_OVERLOAD\",\"feature_missing\":false,\"state\":\"{state}\",\"iter\":{},\"workload\":\"halfload\",\"cmd\":\"halfload -r 3 -j\",\"metrics\":{{\"bench\":\"halfload\",\"tps\":{tps},\"pairs\":4}},\"counters\":{{\"newidle_skipped_not_overloaded\":{skipped},\"rust_calls_newidle_skip\":1000,\"other\":5}},\"duration_s\":3.0}}\n",
            i / 2 + 1
        ));
    }
    s
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("report-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn writes_table_json_and_plots() {
    let dir = tmpdir("ok");
    let input = dir.join("results.jsonl");
    std::fs::write(&input, results()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_report"))
        .arg("--out")
        .arg(&dir)
        .arg(&input)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let txt = std::fs::read_to_string(dir.join("report.txt")).unwrap();
    assert!(
        stdout.starts_with(&txt),
        "stdout is the table, then the plot list"
    );
    assert!(txt.contains("clock: icount"), "clock from the meta line");
    let row = txt.lines().find(|l| l.starts_with("Hmean    tps")).unwrap();
    // Hmean(999, 998, 995) = 997.33 against Hmean(1200, 1203, 1204) =
    // 1202.33: +20.55%, and tight enough to be significant.
    assert!(
        row.ends_with("997.33 (   0.00%)     1202.33 *  20.55%*"),
        "{row}"
    );
    // The focus: the case's counter and its ratio, not "other".
    assert!(
        txt.contains("Rate/s   newidle_skipped_not_overloaded"),
        "{txt}"
    );
    assert!(txt.contains("Ratio    skip_share"), "{txt}");
    assert!(!txt.contains("other"), "{txt}");

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["clock"], "icount");
    let w = &json["cases"][0]["workloads"][0];
    assert_eq!(w["metrics"][0]["name"], "tps");
    assert_eq!(w["metrics"][0]["kind"], "hmean");
    assert_eq!(w["metrics"][0]["significant"], true);
    assert_eq!(w["metrics"][0]["baseline"]["n"], 3);
    assert_eq!(
        w["counters"].as_array().unwrap().len(),
        4,
        "all counters + the ratio in the JSON"
    );
    assert!(dir.join("counters-rd_overload-halfload.png").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_and_options_fail_clearly() {
    let dir = tmpdir("bad");
    let input = dir.join("bad.jsonl");
    std::fs::write(
        &input,
        "RESULT {\"meta\":{}}\nRESULT {\"case\":\"x\",\"state\":\"on\"\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_report"))
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 2: bad JSON"), "{err}");

    std::fs::write(&input, "RESULT {\"meta\":{}}\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_report"))
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no results"));

    let out = Command::new(env!("CARGO_BIN_EXE_report"))
        .arg("--bogus")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown option '--bogus'"));
    std::fs::remove_dir_all(&dir).unwrap();
}
