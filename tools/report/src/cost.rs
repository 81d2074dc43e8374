// SPDX-License-Identifier: GPL-2.0
//! The statistics of the per-helper benchmark (`tools/measure/helper-cost`): the
//! raw table of `/sys/kernel/debug/sched/rust_lb_bench` in, one line per
//! helper out.
//!
//! Each raw line is `helper repeat base_ps rust_ps c_ps stock_ps`:
//! picoseconds per call of the empty loop, the Rust helper, its C twin and
//! the stock C.  Per helper, over the repeats: the extra cost of Rust over
//! its C twin (`rust - c`: median, mean and the 95% confidence interval of
//! the mean, Student t), the ratio `(rust - base) / (c - base)` (median and
//! 95% CI), and the extra cost of Rust over the stock C (`rust - stock`:
//! mean and 95% CI).  On the icount clock one guest instruction is one
//! nanosecond, so ps / 1000 are instructions.

use crate::stats::{amean, ci95_amean};

/// The repeats of one helper, per call, in the table's unit
/// (`[base, rust, c, stock]`).
pub type Repeats = Vec<[f64; 4]>;

/// The helpers in the order of the raw table, with their repeats.
pub fn parse(text: &str) -> Vec<(String, Repeats)> {
    let mut rows: Vec<(String, Repeats)> = Vec::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 6 || !f[1].bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(v) = f[2..]
            .iter()
            .map(|x| x.parse::<f64>().map(|ps| ps / 1000.0))
            .collect::<Result<Vec<_>, _>>()
        else {
            continue;
        };
        let r = [v[0], v[1], v[2], v[3]];
        match rows.iter_mut().find(|(h, _)| h == f[0]) {
            Some((_, rs)) => rs.push(r),
            None => rows.push((f[0].to_string(), vec![r])),
        }
    }
    rows
}

/// The unit of a raw table: "ns" on TCG's clock, else "instructions".
pub fn unit(text: &str) -> &'static str {
    if text.contains("clock tcg") {
        "ns"
    } else {
        "instructions"
    }
}

fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

/// `(mean, half-width of the 95% CI)`; the half-width is NaN below two
/// values.
fn mean_ci(xs: &[f64]) -> (f64, f64) {
    (
        amean(xs).unwrap_or(f64::NAN),
        ci95_amean(xs).unwrap_or(f64::NAN),
    )
}

/// The statistics, one line per helper, under a two-line header.
pub fn table(rows: &[(String, Repeats)], unit: &str) -> String {
    let mut out = vec![
        format!(
            "{:<20} {:>2} {:>6} {:>6} {:>6} {:>6}   {:<34} {:<28} {:<22}",
            "helper",
            "n",
            "base",
            "rust",
            "c",
            "stock",
            format!("extra {unit} (rust - c)"),
            "ratio (rust-base)/(c-base)",
            "rust - stock"
        ),
        format!(
            "{:<20} {:>2} {:>6} {:>6} {:>6} {:>6}   {:<34} {:<28} {:<22}",
            "",
            "",
            "median",
            "median",
            "median",
            "median",
            "median   mean   95% CI",
            "median   95% CI of the mean",
            "mean   95% CI"
        ),
    ];
    for (h, rs) in rows {
        let col = |k: usize| rs.iter().map(|r| r[k]).collect::<Vec<_>>();
        let (base, rust, c, stock) = (col(0), col(1), col(2), col(3));
        let extra: Vec<f64> = rust.iter().zip(&c).map(|(r, x)| r - x).collect();
        let over: Vec<f64> = rust.iter().zip(&stock).map(|(r, x)| r - x).collect();
        // The ratio needs a C twin that costs more than the empty loop (an
        // inlined one-instruction twin may cost less): "-" otherwise.
        let ratio: Vec<f64> = rs
            .iter()
            .filter(|r| r[2] - r[0] > 0.0)
            .map(|r| (r[1] - r[0]) / (r[2] - r[0]))
            .collect();
        let (em, eh) = mean_ci(&extra);
        let (om, oh) = mean_ci(&over);
        let rtext = if ratio.len() == rs.len() {
            let (rm, rh) = mean_ci(&ratio);
            format!("{:>5.2}   [{:.2}, {:.2}]", median(&ratio), rm - rh, rm + rh)
        } else {
            format!("{:>5}   (C at or below the empty loop)", "-")
        };
        out.push(format!(
            "{:<20} {:>2} {:>6.1} {:>6.1} {:>6.1} {:>6.1}   {:>6.1} {:>6.1}   [{:>5.1}, {:>5.1}]      {:<28} {:>5.1} [{:>5.1}, {:>5.1}]",
            h,
            rs.len(),
            median(&base),
            median(&rust),
            median(&c),
            median(&stock),
            median(&extra),
            em,
            em - eh,
            em + eh,
            rtext,
            om,
            om - oh,
            om + oh
        ));
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    const RAW: &str = "# tools/measure/helper-cost --iterations 10 (clock icount)
helper               repeat    base_ps    rust_ps       c_ps   stock_ps
a                         0       9000      20000      18000      16000
a                         1       9000      22000      18000      16000
b                         0       9000      10000       8000       8000
b                         1       9000      10000       8000       8000
";

    #[test]
    fn parses_in_order_and_in_instructions() {
        let rows = parse(RAW);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].0, "a");
        assert_eq!(
            rows[0].1,
            vec![[9.0, 20.0, 18.0, 16.0], [9.0, 22.0, 18.0, 16.0]]
        );
        assert_eq!(unit(RAW), "instructions");
        assert_eq!(unit("# x (clock tcg)"), "ns");
    }

    #[test]
    fn extra_cost_and_ratio() {
        let t = table(&parse(RAW), "instructions");
        let a = t.lines().nth(2).unwrap();
        // rust - c: 2 and 4, median 3, mean 3; rust - stock mean 5.
        assert!(a.contains("   3.0    3.0   ["), "{a}");
        assert!(a.contains("  5.0 ["), "{a}");
        // The twin of b is below the empty loop: no ratio.
        assert!(t
            .lines()
            .nth(3)
            .unwrap()
            .contains("(C at or below the empty loop)"));
    }
}
