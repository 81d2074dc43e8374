// SPDX-License-Identifier: GPL-2.0
//! The statistics of the report: means, Student t confidence intervals and
//! the significance rule of mmtests' compare-kernels.

/// Arithmetic mean; `None` for no data.
pub fn amean(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    Some(xs.iter().sum::<f64>() / xs.len() as f64)
}

/// Harmonic mean, the mean of rates (requests per second, ...): the rate
/// of the summed work over the summed time when each run did the same
/// work.  `None` for no data or a negative value; 0 when a value is 0.
pub fn hmean(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() || xs.iter().any(|&x| x < 0.0 || x.is_nan()) {
        return None;
    }
    if xs.contains(&0.0) {
        return Some(0.0);
    }
    Some(xs.len() as f64 / xs.iter().map(|x| 1.0 / x).sum::<f64>())
}

/// Sample standard deviation (n - 1); `None` below two values.
pub fn stddev(xs: &[f64]) -> Option<f64> {
    if xs.len() < 2 {
        return None;
    }
    let m = amean(xs)?;
    let ss: f64 = xs.iter().map(|x| (x - m) * (x - m)).sum();
    Some((ss / (xs.len() - 1) as f64).sqrt())
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9; ~1e-15 relative).
pub fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x) Γ(1 - x) = π / sin(πx)
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).abs().ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + G + 0.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// Continued fraction of the incomplete beta function (modified Lentz).
fn beta_cf(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..=300 {
        let m = m as f64;
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// Regularized incomplete beta function I_x(a, b), 0 <= x <= 1.
pub fn inc_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    let front = ln_front.exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_cf(a, b, x) / a
    } else {
        1.0 - front * beta_cf(b, a, 1.0 - x) / b
    }
}

/// CDF of Student's t distribution with `df` degrees of freedom.
pub fn t_cdf(t: f64, df: f64) -> f64 {
    let tail = 0.5 * inc_beta(df / 2.0, 0.5, df / (df + t * t));
    if t >= 0.0 {
        1.0 - tail
    } else {
        tail
    }
}

/// Quantile of Student's t: the `t` with `t_cdf(t, df) == p`, 0 < p < 1.
pub fn t_quantile(p: f64, df: f64) -> f64 {
    assert!(p > 0.0 && p < 1.0 && df > 0.0, "t_quantile({p}, {df})");
    if p < 0.5 {
        return -t_quantile(1.0 - p, df);
    }
    // t_cdf is increasing: bisect on [0, hi].
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    while t_cdf(hi, df) < p {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if t_cdf(mid, df) < p {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-12 * hi.max(1.0) {
            break;
        }
    }
    0.5 * (lo + hi)
}

/// Half-width of the two-sided 95% confidence interval of the arithmetic
/// mean: t(0.975, n-1) · s / √n.  `None` below two values.
pub fn ci95_amean(xs: &[f64]) -> Option<f64> {
    let s = stddev(xs)?;
    let n = xs.len() as f64;
    Some(t_quantile(0.975, n - 1.0) * s / n.sqrt())
}

/// Half-width of the 95% confidence interval of the harmonic mean: the
/// interval of the mean of 1/x carried back by the delta method,
/// H² · t(0.975, n-1) · s(1/x) / √n.  `None` below two values or when a
/// value is not positive.
pub fn ci95_hmean(xs: &[f64]) -> Option<f64> {
    if xs.iter().any(|&x| x <= 0.0) {
        return None;
    }
    let inv: Vec<f64> = xs.iter().map(|x| 1.0 / x).collect();
    let h = hmean(xs)?;
    Some(h * h * ci95_amean(&inv)?)
}

/// compare-kernels' rule: the difference of the means is significant when
/// it exceeds the sum of the two confidence-interval half-widths.  `None`
/// when an interval is unknown (fewer than two runs).
pub fn significant(base: f64, base_ci: Option<f64>, cmp: f64, cmp_ci: Option<f64>) -> Option<bool> {
    Some((cmp - base).abs() > base_ci? + cmp_ci?)
}

/// Which way is better for a quantity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Better {
    Lower,
    Higher,
    /// Counters: the percentage is the plain change.
    Neither,
}

/// Percentage of the compare value against the baseline, signed as in
/// compare-kernels so that positive is better: (b - c)/b for lower-is-
/// better, (c - b)/b otherwise.  `None` when the baseline is 0.
pub fn pct_diff(base: f64, cmp: f64, better: Better) -> Option<f64> {
    if base == 0.0 || !base.is_finite() || !cmp.is_finite() {
        return None;
    }
    let d = (cmp - base) / base.abs() * 100.0;
    Some(if better == Better::Lower { -d } else { d })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn means_of_known_data() {
        assert_eq!(amean(&[1.0, 2.0, 3.0, 4.0]), Some(2.5));
        // 3 / (1/1 + 1/2 + 1/4) = 12/7
        assert!(close(hmean(&[1.0, 2.0, 4.0]).unwrap(), 12.0 / 7.0, 1e-12));
        // Two runs of the same work at 40 and 60 req/s: the total rate is 48.
        assert!(close(hmean(&[40.0, 60.0]).unwrap(), 48.0, 1e-12));
        assert_eq!(hmean(&[5.0, 0.0]), Some(0.0));
        assert_eq!(hmean(&[5.0, -1.0]), None);
        assert_eq!(amean(&[]), None);
        assert_eq!(hmean(&[]), None);
        // Hmean <= Amean
        let xs = [3.0, 7.0, 11.0, 2.5];
        assert!(hmean(&xs).unwrap() <= amean(&xs).unwrap());
    }

    #[test]
    fn sample_stddev() {
        // 2 4 4 4 5 5 7 9: population sd 2, sample sd sqrt(32/7)
        let xs = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        assert!(close(stddev(&xs).unwrap(), (32.0_f64 / 7.0).sqrt(), 1e-12));
        assert_eq!(stddev(&[1.0]), None);
    }

    #[test]
    fn gamma_and_beta() {
        // Γ(5) = 24, Γ(1/2) = √π
        assert!(close(ln_gamma(5.0), 24.0_f64.ln(), 1e-12));
        assert!(close(
            ln_gamma(0.5),
            std::f64::consts::PI.sqrt().ln(),
            1e-12
        ));
        // I_x(1, 1) = x; I_x(a, b) = 1 - I_{1-x}(b, a)
        assert!(close(inc_beta(1.0, 1.0, 0.3), 0.3, 1e-12));
        assert!(close(
            inc_beta(2.5, 1.5, 0.4),
            1.0 - inc_beta(1.5, 2.5, 0.6),
            1e-12
        ));
        // I_x(2, 1) = x²
        assert!(close(inc_beta(2.0, 1.0, 0.7), 0.49, 1e-12));
    }

    #[test]
    fn t_distribution_known_values() {
        // Two-sided 95% critical values from the standard t table.
        for (df, t) in [
            (1.0, 12.7062),
            (2.0, 4.3027),
            (3.0, 3.1824),
            (4.0, 2.7764),
            (5.0, 2.5706),
            (9.0, 2.2622),
            (10.0, 2.2281),
            (29.0, 2.0452),
            (120.0, 1.9799),
        ] {
            let q = t_quantile(0.975, df);
            assert!(close(q, t, 5e-4), "df {df}: {q} vs {t}");
        }
        // One-sided 99%, df 7: 2.998
        assert!(close(t_quantile(0.99, 7.0), 2.9980, 5e-4));
        // Towards the normal: 1.95996
        assert!(close(t_quantile(0.975, 1e6), 1.95996, 1e-4));
        // Symmetry, the median, and the Cauchy case (df 1) in closed form.
        assert!(close(t_quantile(0.025, 6.0), -t_quantile(0.975, 6.0), 1e-9));
        assert!(close(t_cdf(0.0, 3.0), 0.5, 1e-12));
        assert!(close(t_cdf(1.0, 1.0), 0.75, 1e-12));
    }

    #[test]
    fn confidence_intervals() {
        // n = 3, s = 1: t(0.975, 2) / √3 = 4.3027 / 1.7321 = 2.4841
        let ci = ci95_amean(&[9.0, 10.0, 11.0]).unwrap();
        assert!(close(ci, 2.4841, 1e-3), "{ci}");
        assert_eq!(ci95_amean(&[1.0]), None);
        assert_eq!(ci95_amean(&[4.0, 4.0, 4.0]), Some(0.0));
        // Hmean interval: of the reciprocals 1/2, 1/4 (mean 3/8, s = √2/8),
        // carried back with H² = (8/3)².
        let ci = ci95_hmean(&[2.0, 4.0]).unwrap();
        let want = (8.0_f64 / 3.0).powi(2) * 12.7062 * (2.0_f64.sqrt() / 8.0) / 2.0_f64.sqrt();
        assert!(close(ci, want, 1e-3), "{ci} vs {want}");
        assert_eq!(ci95_hmean(&[2.0, 0.0]), None);
    }

    #[test]
    fn significance_rule() {
        // Tight samples far apart: significant.
        let b = [100.0, 101.0, 99.0, 100.5, 99.5];
        let c = [120.0, 121.0, 119.0, 120.5, 119.5];
        let s = significant(
            amean(&b).unwrap(),
            ci95_amean(&b),
            amean(&c).unwrap(),
            ci95_amean(&c),
        );
        assert_eq!(s, Some(true));
        // Wide, overlapping samples with a similar mean difference: not.
        let b = [80.0, 120.0, 100.0];
        let c = [95.0, 140.0, 125.0];
        let s = significant(
            amean(&b).unwrap(),
            ci95_amean(&b),
            amean(&c).unwrap(),
            ci95_amean(&c),
        );
        assert_eq!(s, Some(false));
        // Exactly at the bound is not significant (strictly greater).
        assert_eq!(significant(10.0, Some(1.0), 12.0, Some(1.0)), Some(false));
        assert_eq!(significant(10.0, Some(1.0), 12.001, Some(1.0)), Some(true));
        // One run: unknown.
        assert_eq!(significant(10.0, None, 20.0, Some(1.0)), None);
    }

    #[test]
    fn percentages_are_signed_as_gains() {
        // Latency 100 -> 90 is a 10% gain; rate 100 -> 90 a 10% loss.
        assert!(close(
            pct_diff(100.0, 90.0, Better::Lower).unwrap(),
            10.0,
            1e-12
        ));
        assert!(close(
            pct_diff(100.0, 90.0, Better::Higher).unwrap(),
            -10.0,
            1e-12
        ));
        assert!(close(
            pct_diff(100.0, 150.0, Better::Neither).unwrap(),
            50.0,
            1e-12
        ));
        assert_eq!(pct_diff(0.0, 5.0, Better::Neither), None);
    }
}
