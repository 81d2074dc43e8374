// SPDX-License-Identifier: GPL-2.0
//! `helper-cost FILE|-`: the statistics of a raw `rust_lb_bench` table
//! (`report::cost`), printed as `tools/measure/helper-cost` commits them.

use std::io::Read;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path] = args.as_slice() else {
        eprintln!("usage: helper-cost FILE|-   (a raw rust_lb_bench table)");
        return ExitCode::from(2);
    };
    let mut text = String::new();
    let read = if path == "-" {
        std::io::stdin().read_to_string(&mut text).map(|_| ())
    } else {
        std::fs::read_to_string(path).map(|t| text = t)
    };
    if let Err(e) = read {
        eprintln!("helper-cost: {path}: {e}");
        return ExitCode::from(2);
    }
    let rows = report::cost::parse(&text);
    if rows.is_empty() {
        eprintln!("helper-cost: {path}: no benchmark lines");
        return ExitCode::FAILURE;
    }
    println!("{}", report::cost::table(&rows, report::cost::unit(&text)));
    ExitCode::SUCCESS
}
