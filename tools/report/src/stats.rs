// SPDX-License-Identifier: GPL-2.0
//! The statistics of the report: means, Student t confidence intervals,
//! Welch and paired t-tests, Fieller's interval of a ratio of means, the
//! Wilcoxon signed-rank test and the two one-sided tests of equivalence.
//! The distributions are statrs'.

use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

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

/// Student's t distribution with `df` degrees of freedom (statrs).
fn students_t(df: f64) -> StudentsT {
    StudentsT::new(0.0, 1.0, df).unwrap_or_else(|e| panic!("t distribution, df {df}: {e}"))
}

/// CDF of Student's t distribution with `df` degrees of freedom.
pub fn t_cdf(t: f64, df: f64) -> f64 {
    students_t(df).cdf(t)
}

/// Quantile of Student's t: the `t` with `t_cdf(t, df) == p`, 0 < p < 1,
/// by bisection on statrs' CDF.  Not statrs' own `inverse_cdf`: in 0.19
/// it stops early for large df (t(0.975) 1.95985 for df 10⁶, 1.8266 for
/// df 10⁷, where it is 1.95996), which the test below would catch.
pub fn t_quantile(p: f64, df: f64) -> f64 {
    assert!(p > 0.0 && p < 1.0 && df > 0.0, "t_quantile({p}, {df})");
    if p < 0.5 {
        return -t_quantile(1.0 - p, df);
    }
    let dist = students_t(df);
    // The CDF is increasing: bisect on [0, hi].
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    while dist.cdf(hi) < p {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if dist.cdf(mid) < p {
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

/// Mean and sample variance (n - 1) for the t-tests.  A constant sample
/// gives its value and an exact 0, not the rounding noise of the sums, so
/// that "no variance" is recognised.  `None` below two values or on a
/// value that is not finite.
fn mean_var(xs: &[f64]) -> Option<(f64, f64)> {
    if xs.len() < 2 || xs.iter().any(|x| !x.is_finite()) {
        return None;
    }
    if xs.iter().all(|&x| x == xs[0]) {
        return Some((xs[0], 0.0));
    }
    let m = amean(xs)?;
    let s = stddev(xs)?;
    Some((m, s * s))
}

/// A two-sample t-test of compare against baseline.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct TTest {
    /// mean(compare) - mean(baseline).
    pub diff: f64,
    /// Lower end of the two-sided 95% confidence interval of `diff`.
    pub lo: f64,
    /// Upper end of the two-sided 95% confidence interval of `diff`.
    pub hi: f64,
    /// Two-sided p-value of "the means are equal".
    pub p: f64,
    /// Degrees of freedom of the t distribution used.
    pub df: f64,
}

/// The test of `diff` with standard error `se` against t(`df`).  With no
/// variance (`se` = 0) the difference is known exactly: p = 1 and the
/// interval [0, 0] when it is 0, p = 0 and [diff, diff] otherwise.
fn t_test(diff: f64, se: f64, df: f64) -> TTest {
    if se == 0.0 {
        let p = if diff == 0.0 { 1.0 } else { 0.0 };
        return TTest {
            diff,
            lo: diff,
            hi: diff,
            p,
            df,
        };
    }
    let p = (2.0 * t_cdf(-(diff / se).abs(), df)).clamp(0.0, 1.0);
    let half = t_quantile(0.975, df) * se;
    TTest {
        diff,
        lo: diff - half,
        hi: diff + half,
        p,
        df,
    }
}

/// Difference of the means, its Welch standard error
/// √(s₁²/n₁ + s₂²/n₂), the Welch–Satterthwaite degrees of freedom
/// (s₁²/n₁ + s₂²/n₂)² / ((s₁²/n₁)²/(n₁-1) + (s₂²/n₂)²/(n₂-1)) and the
/// baseline mean.  With no variance on either side the degrees of freedom
/// are 0/0; n₁ + n₂ - 2 is given instead.  `None` below two values on a
/// side or when a value, the variance or the difference is not finite.
fn welch_parts(base: &[f64], cmp: &[f64]) -> Option<(f64, f64, f64, f64)> {
    let (mb, vb) = mean_var(base)?;
    let (mc, vc) = mean_var(cmp)?;
    let (nb, nc) = (base.len() as f64, cmp.len() as f64);
    let (qb, qc) = (vb / nb, vc / nc);
    let se2 = qb + qc;
    let diff = mc - mb;
    if !se2.is_finite() || !diff.is_finite() {
        return None;
    }
    if se2 == 0.0 {
        return Some((diff, 0.0, nb + nc - 2.0, mb));
    }
    // Shares of the variance, so that nothing is squared to overflow.
    let (rb, rc) = (qb / se2, qc / se2);
    let df = 1.0 / (rb * rb / (nb - 1.0) + rc * rc / (nc - 1.0));
    Some((diff, se2.sqrt(), df, mb))
}

/// Welch's unequal-variance two-sample t-test of mean(cmp) - mean(base),
/// with the Welch–Satterthwaite degrees of freedom.  `None` below two
/// values on a side or on a value that is not finite.  When neither side
/// varies: p = 1 and [0, 0] for equal means, p = 0 and [diff, diff]
/// otherwise.
pub fn welch(base: &[f64], cmp: &[f64]) -> Option<TTest> {
    let (diff, se, df, _) = welch_parts(base, cmp)?;
    Some(t_test(diff, se, df))
}

/// Paired t-test of the differences cmp[i] - base[i] (the same workload
/// run on both kernels in turn): mean d̄, se = s(d)/√n, df = n - 1.
/// `None` on unequal lengths, below two pairs or on a value that is not
/// finite.  When the differences do not vary: p = 1 and [0, 0] for d̄ = 0,
/// p = 0 and [d̄, d̄] otherwise.
pub fn paired(base: &[f64], cmp: &[f64]) -> Option<TTest> {
    if base.len() != cmp.len() || base.iter().chain(cmp).any(|x| !x.is_finite()) {
        return None;
    }
    let d: Vec<f64> = cmp.iter().zip(base).map(|(c, b)| c - b).collect();
    let (m, v) = mean_var(&d)?;
    let n = d.len() as f64;
    Some(t_test(m, (v / n).sqrt(), n - 1.0))
}

/// A ratio of two means with its two-sided 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct RatioCi {
    /// mean(num) / mean(den).
    pub ratio: f64,
    /// The interval's ends; `None` when it is unbounded (the denominator's
    /// mean is not significantly different from 0).
    pub lo: Option<f64>,
    pub hi: Option<f64>,
}

/// Fieller's 95% interval of mean(num) / mean(den) for two independent
/// samples: the ratios r for which mean(num) - r · mean(den) is within
/// t(0.975, df) of its standard error √(v₁ + r² v₂) (v: the variances of
/// the means), with the Welch–Satterthwaite df at the estimate.  Unlike
/// the interval of the difference divided by the denominator's mean, it
/// carries the denominator's uncertainty.  With g = t² v₂ / mean(den)²
/// < 1: (r ± t / |mean(den)| · √(v₁ (1 - g) + r² v₂)) / (1 - g);
/// unbounded for g ≥ 1.  The normal model knows nothing of signs, so the
/// lower end can fall below 0 when the numerator's mean is not clearly
/// above it; when no value of either sample is negative, the ratio cannot
/// be, and the interval is cut at 0 (its intersection with the possible
/// ratios, which keeps its coverage).  `None` below two values on a side,
/// on a value that is not finite, or for mean(den) = 0.
pub fn fieller(num: &[f64], den: &[f64]) -> Option<RatioCi> {
    let (a, sa) = mean_var(num)?;
    let (b, sb) = mean_var(den)?;
    if b == 0.0 {
        return None;
    }
    let (na, nb) = (num.len() as f64, den.len() as f64);
    let (va, vb) = (sa / na, sb / nb);
    let r = a / b;
    let var = va + r * r * vb;
    if var == 0.0 {
        return Some(RatioCi {
            ratio: r,
            lo: Some(r),
            hi: Some(r),
        });
    }
    let (qa, qb) = (va / var, r * r * vb / var);
    let df = 1.0 / (qa * qa / (na - 1.0) + qb * qb / (nb - 1.0));
    let t = t_quantile(0.975, df);
    let g = t * t * vb / (b * b);
    // g is finite here (b ≠ 0, t and vb finite), so not below 1 is g ≥ 1.
    if g >= 1.0 {
        return Some(RatioCi {
            ratio: r,
            lo: None,
            hi: None,
        });
    }
    let half = t / b.abs() * (va * (1.0 - g) + r * r * vb).sqrt();
    let mut lo = (r - half) / (1.0 - g);
    if num.iter().chain(den).all(|&x| x >= 0.0) {
        lo = lo.max(0.0);
    }
    Some(RatioCi {
        ratio: r,
        lo: Some(lo),
        hi: Some((r + half) / (1.0 - g)),
    })
}

/// The Wilcoxon signed-rank test of the paired differences cmp[i] - base[i].
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Wilcoxon {
    /// The smaller of the rank sums of the positive and the negative
    /// differences.
    pub statistic: f64,
    /// Two-sided p-value of "the differences are symmetric about 0".
    pub p: f64,
    /// Pairs with a difference other than 0 (the others are dropped).
    pub n: usize,
    /// The p-value is from the exact distribution of the rank sum (no
    /// ties, n ≤ 50); else from the normal approximation with the tie
    /// correction of the variance, without continuity correction.
    pub exact: bool,
}

/// Wilcoxon's signed-rank test of the paired differences cmp[i] - base[i]
/// (zeros dropped, ties given their mean rank), as SciPy's
/// `wilcoxon(cmp, base)` computes it by default.  A test of the ranks, not
/// the values: a single outlying pair moves it by one rank, not by its
/// size.  `None` on unequal lengths or a value that is not finite; p = 1
/// when no difference is other than 0.
pub fn wilcoxon(base: &[f64], cmp: &[f64]) -> Option<Wilcoxon> {
    if base.len() != cmp.len() || base.iter().chain(cmp).any(|x| !x.is_finite()) {
        return None;
    }
    let mut d: Vec<f64> = cmp
        .iter()
        .zip(base)
        .map(|(c, b)| c - b)
        .filter(|d| *d != 0.0)
        .collect();
    let n = d.len();
    if n == 0 {
        return Some(Wilcoxon {
            statistic: 0.0,
            p: 1.0,
            n,
            exact: true,
        });
    }
    d.sort_by(|x, y| x.abs().total_cmp(&y.abs()));
    // Mean ranks of equal |d|, and Σ (t³ - t) over the groups of ties.
    let (mut r_plus, mut r_minus, mut ties) = (0.0, 0.0, 0.0);
    let mut i = 0;
    while i < n {
        let j = (i..n).find(|&j| d[j].abs() != d[i].abs()).unwrap_or(n);
        let rank = (i + 1 + j) as f64 / 2.0;
        for x in &d[i..j] {
            if *x > 0.0 {
                r_plus += rank;
            } else {
                r_minus += rank;
            }
        }
        let t = (j - i) as f64;
        ties += t * t * t - t;
        i = j;
    }
    let statistic = f64::min(r_plus, r_minus);
    let nf = n as f64;
    let exact = ties == 0.0 && n <= 50;
    let p = if exact {
        // counts[k]: the subsets of the ranks 1..=n that sum to k, each
        // the rank sum of the positive differences with probability 2^-n.
        let max = n * (n + 1) / 2;
        let mut counts = vec![0.0_f64; max + 1];
        counts[0] = 1.0;
        for rank in 1..=n {
            for k in (rank..=max).rev() {
                counts[k] += counts[k - rank];
            }
        }
        let below: f64 = counts[..=statistic as usize].iter().sum();
        (2.0 * below / 2.0_f64.powi(n as i32)).min(1.0)
    } else {
        let mean = nf * (nf + 1.0) / 4.0;
        let var = nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0 - ties / 48.0;
        if var <= 0.0 {
            1.0
        } else {
            let normal = Normal::new(0.0, 1.0).expect("the standard normal");
            (2.0 * normal.cdf(-((statistic - mean) / var.sqrt()).abs())).min(1.0)
        }
    };
    Some(Wilcoxon {
        statistic,
        p,
        n,
        exact,
    })
}

/// Result of an equivalence test.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Tost {
    /// The larger of the two one-sided p-values.
    pub p: f64,
    /// The absolute equivalence margin: the difference of the means is
    /// tested to lie within ±`margin`.
    pub margin: f64,
    /// `p` < 0.05: the means are equivalent within the margin.
    pub equivalent: bool,
}

/// Schuirmann's two one-sided tests (TOST) of equivalence, each a Welch
/// test: H₀ diff ≤ -δ against t = (diff + δ)/se and H₀ diff ≥ δ against
/// t = (diff - δ)/se, with δ = `margin_rel` · |mean(base)| and diff =
/// mean(cmp) - mean(base).  Equivalence at α = 0.05 (the same as the 90%
/// interval of diff lying inside ±δ) when both are rejected, i.e. the
/// larger p-value is below 0.05.  When neither side varies, equivalent
/// exactly when |diff| < δ (p = 0, else p = 1).  `None` below two values
/// on a side, for a value or `margin_rel` that is not finite, a negative
/// `margin_rel`, or mean(base) = 0.
pub fn tost(base: &[f64], cmp: &[f64], margin_rel: f64) -> Option<Tost> {
    if !margin_rel.is_finite() || margin_rel < 0.0 {
        return None;
    }
    let (diff, se, df, mb) = welch_parts(base, cmp)?;
    if mb == 0.0 {
        return None;
    }
    let margin = margin_rel * mb.abs();
    let p = if se == 0.0 {
        if diff.abs() < margin {
            0.0
        } else {
            1.0
        }
    } else {
        let p_lower = t_cdf(-(diff + margin) / se, df);
        let p_upper = t_cdf((diff - margin) / se, df);
        p_lower.max(p_upper).clamp(0.0, 1.0)
    };
    Some(Tost {
        p,
        margin,
        equivalent: p < 0.05,
    })
}

/// The smallest relative margin (a fraction of |mean(base)|) at which
/// [`tost`] concludes equivalence at α = 0.05, for "equivalent within
/// X%": (|diff| + t(0.95, df) · se) / |mean(base)| with the Welch se and
/// df, the far end of the 90% interval of diff.  It is the bound itself,
/// where p = 0.05 exactly: any larger margin is equivalent.  `None` where
/// [`tost`] is.
pub fn min_equivalence_margin(base: &[f64], cmp: &[f64]) -> Option<f64> {
    let (diff, se, df, mb) = welch_parts(base, cmp)?;
    if mb == 0.0 {
        return None;
    }
    let reach = if se == 0.0 {
        0.0
    } else {
        t_quantile(0.95, df) * se
    };
    Some((diff.abs() + reach) / mb.abs())
}

/// The scale an effect is resolved on: the natural log of the values
/// when every one is positive (a ratio's scale, symmetric for rates and
/// times), else the values over |mean(base)|.
fn effect_scale(base: &[f64], cmp: &[f64]) -> Option<(Vec<f64>, Vec<f64>)> {
    if base.iter().chain(cmp).all(|&x| x > 0.0 && x.is_finite()) {
        return Some((
            base.iter().map(|x| x.ln()).collect(),
            cmp.iter().map(|x| x.ln()).collect(),
        ));
    }
    let (mb, _) = mean_var(base)?;
    if mb == 0.0 {
        return None;
    }
    let f = |xs: &[f64]| xs.iter().map(|x| x / mb.abs()).collect();
    Some((f(base), f(cmp)))
}

/// What a comparison of these two samples could resolve, from their own
/// variances.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Resolution {
    /// Minimum detectable effect of Welch's two-sided test at α = 0.05
    /// with 80% power, as a fraction: (t(0.975, df) + t(0.80, df)) ·
    /// √(s₁²/n₁ + s₂²/n₂) on the log scale, as exp(·) - 1.
    pub mde: f64,
    /// The smallest equivalence margin TOST could claim at these variances
    /// were the means equal: t(0.95, df) · se, as a fraction.  No verdict
    /// of "equivalent within ±m" can have m below it.
    pub equiv_floor: f64,
    /// Per-state variances on the scale of `mde` (for [`iterations_for`]).
    pub var_base: f64,
    pub var_cmp: f64,
    /// Runs per state it was computed from (the smaller).
    pub n: usize,
}

/// The [`Resolution`] of base against cmp; `None` below two values on a
/// side or where the scale has no value (a mean of 0 with values ≤ 0).
pub fn resolution(base: &[f64], cmp: &[f64]) -> Option<Resolution> {
    let (b, c) = effect_scale(base, cmp)?;
    let (_, vb) = mean_var(&b)?;
    let (_, vc) = mean_var(&c)?;
    let (_, se, df, _) = welch_parts(&b, &c)?;
    let back = |x: f64| if base.iter().chain(cmp).all(|&v| v > 0.0) { x.exp() - 1.0 } else { x };
    let (mde, floor) = if se == 0.0 {
        (0.0, 0.0)
    } else {
        (
            back((t_quantile(0.975, df) + t_quantile(0.80, df)) * se),
            back(t_quantile(0.95, df) * se),
        )
    };
    Some(Resolution {
        mde,
        equiv_floor: floor,
        var_base: vb,
        var_cmp: vc,
        n: base.len().min(cmp.len()),
    })
}

/// The runs per state at which the [`Resolution`]'s variances give a
/// minimum detectable effect of at most `target` (a fraction), or `None`
/// beyond ten million.
pub fn iterations_for(r: &Resolution, target: f64) -> Option<usize> {
    if !(target > 0.0) {
        return None;
    }
    let goal = (1.0 + target).ln();
    let v = r.var_base + r.var_cmp;
    if v == 0.0 {
        return Some(2);
    }
    let fits = |n: usize| {
        let df = 2.0 * n as f64 - 2.0;
        (t_quantile(0.975, df) + t_quantile(0.80, df)) * (v / n as f64).sqrt() <= goal
    };
    // From the normal approximation, then up to the t distribution's n.
    let z = 1.959_964 + 0.841_621;
    let mut n = ((z * z * v / (goal * goal)).ceil() as usize).max(2);
    while !fits(n) {
        n = n + 1 + n / 64;
        if n > 10_000_000 {
            return None;
        }
    }
    Some(n)
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
        // Towards the normal: 1.959966 (scipy.stats.t.ppf(0.975, 1e6)),
        // and at df 10⁷, where statrs' inverse_cdf is 0.13 off.
        assert!(close(t_quantile(0.975, 1e6), 1.959_966_356_8, 1e-6));
        assert!(close(t_quantile(0.975, 1e7), 1.959_964_2, 1e-5));
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

    /// Student's sleep data (Cushny & Peebles; R's `sleep`): extra hours
    /// of sleep of ten patients under two drugs.
    const SLEEP_1: [f64; 10] = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
    const SLEEP_2: [f64; 10] = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];

    /// No field of a test is NaN.
    fn no_nan(t: &TTest) -> bool {
        [t.diff, t.lo, t.hi, t.p, t.df].iter().all(|x| !x.is_nan())
    }

    #[test]
    fn welch_known_values() {
        // Means 3 and 6, s² 2.5 and 10: se² = 2.5/5 + 10/5 = 2.5,
        // t = 3/√2.5 = 1.8974, df = 2.5² / (0.5²/4 + 2²/4) = 100/17 = 5.8824.
        // p and the interval (diff ± t(0.975, 100/17) · se) from the t
        // distribution computed independently (mpmath, 40 digits).
        let r = welch(&[1.0, 2.0, 3.0, 4.0, 5.0], &[2.0, 4.0, 6.0, 8.0, 10.0]).unwrap();
        assert!(close(r.diff, 3.0, 1e-12));
        assert!(close(r.df, 100.0 / 17.0, 1e-12), "{r:?}");
        assert!(close(r.p, 0.107_531_194_931, 1e-9), "{r:?}");
        assert!(close(r.lo, -0.887_741_643_737, 1e-8), "{r:?}");
        assert!(close(r.hi, 6.887_741_643_74, 1e-8), "{r:?}");
        // Swapping the sides flips the difference, not the p-value.
        let s = welch(&[2.0, 4.0, 6.0, 8.0, 10.0], &[1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
        assert!(close(s.diff, -3.0, 1e-12) && close(s.p, r.p, 1e-12));
        assert!(close(s.lo, -r.hi, 1e-9) && close(s.hi, -r.lo, 1e-9));

        // R: t.test(extra ~ group, data = sleep) gives t = -1.8608,
        // df = 17.776, p = 0.07939, 95% CI -3.3654832 0.2054832 for
        // group 1 - group 2; here compare - baseline, so the CI is negated.
        let r = welch(&SLEEP_1, &SLEEP_2).unwrap();
        assert!(close(r.diff, 1.58, 1e-12));
        assert!(close(r.df, 17.776_473_516_2, 1e-8), "{r:?}");
        assert!(close(r.p, 0.079_394_140_187_4, 1e-9), "{r:?}");
        assert!(close(r.lo, -0.205_483_230_712, 1e-8), "{r:?}");
        assert!(close(r.hi, 3.365_483_230_71, 1e-8), "{r:?}");

        // One side without variance: se = √(1/3) (s² = 1, n = 3) and
        // df = n - 1 = 2 of the other side; t = 3√3 = 5.196,
        // half-width 4.3027 / √3 = 2.4841.
        let r = welch(&[10.0, 10.0, 10.0], &[12.0, 13.0, 14.0]).unwrap();
        assert!(close(r.df, 2.0, 1e-12));
        assert!(close(r.p, 0.035_098_718_646, 1e-9), "{r:?}");
        assert!(close(r.lo, 0.515_862_288_25, 1e-8), "{r:?}");
        assert!(close(r.hi, 5.484_137_711_75, 1e-8), "{r:?}");
    }

    #[test]
    fn paired_known_values() {
        // R: t.test(extra ~ group, data = sleep, paired = TRUE) gives
        // t = -4.0621, df = 9, p = 0.002833, 95% CI -2.4598858 -0.7001142
        // (group 1 - group 2; negated here).  By hand: d̄ = 1.58,
        // s(d) = 1.2300, se = 0.38896, t = 4.0621; t(0.975, 9) = 2.2622.
        let r = paired(&SLEEP_1, &SLEEP_2).unwrap();
        assert!(close(r.diff, 1.58, 1e-12));
        assert_eq!(r.df, 9.0);
        assert!(close(r.p, 0.002_832_890_197_38, 1e-10), "{r:?}");
        assert!(close(r.lo, 0.700_114_236_723, 1e-8), "{r:?}");
        assert!(close(r.hi, 2.459_885_763_28, 1e-8), "{r:?}");
        // The pairing removes the patient-to-patient spread: far more
        // significant than the unpaired test of the same data.
        assert!(r.p < welch(&SLEEP_1, &SLEEP_2).unwrap().p);
    }

    #[test]
    fn t_tests_without_variance() {
        // Equal constant samples: no difference at all.
        let r = welch(&[5.0, 5.0, 5.0], &[5.0, 5.0]).unwrap();
        assert_eq!((r.diff, r.lo, r.hi, r.p, r.df), (0.0, 0.0, 0.0, 1.0, 3.0));
        // Different constant samples: a certain difference.
        let r = welch(&[5.0, 5.0, 5.0], &[7.0, 7.0]).unwrap();
        assert_eq!((r.diff, r.lo, r.hi, r.p), (2.0, 2.0, 2.0, 0.0));
        // A constant that does not sum exactly (0.1 · 3 != 0.3) is still
        // recognised as constant.
        let r = welch(&[0.1; 3], &[0.1; 5]).unwrap();
        assert_eq!((r.diff, r.lo, r.hi, r.p), (0.0, 0.0, 0.0, 1.0));
        // Paired: a constant shift of 1 and no shift.
        let r = paired(&[1.0, 2.0, 3.0], &[2.0, 3.0, 4.0]).unwrap();
        assert_eq!((r.diff, r.lo, r.hi, r.p, r.df), (1.0, 1.0, 1.0, 0.0, 2.0));
        let r = paired(&[1.0, 2.0, 3.0], &[1.0, 2.0, 3.0]).unwrap();
        assert_eq!((r.diff, r.lo, r.hi, r.p), (0.0, 0.0, 0.0, 1.0));
    }

    #[test]
    fn t_tests_reject_short_or_bad_input() {
        assert_eq!(welch(&[1.0], &[1.0, 2.0]), None);
        assert_eq!(welch(&[1.0, 2.0], &[3.0]), None);
        assert_eq!(welch(&[], &[]), None);
        assert_eq!(welch(&[1.0, f64::NAN], &[1.0, 2.0]), None);
        assert_eq!(welch(&[1.0, 2.0], &[1.0, f64::INFINITY]), None);
        assert_eq!(paired(&[1.0], &[2.0]), None);
        assert_eq!(paired(&[1.0, 2.0, 3.0], &[2.0, 3.0]), None);
        assert_eq!(paired(&[1.0, f64::NAN], &[2.0, 3.0]), None);
        // Extreme but finite values give no NaN.
        for (b, c) in [
            (vec![1e300, -1e300], vec![0.0, 1.0]),
            (vec![1e-300, 2e-300], vec![1e300, 1e300]),
            (vec![1e150, 3e150, 2e150], vec![1.0, 2.0]),
            (vec![0.0, 1e-320], vec![0.0, 0.0]),
        ] {
            if let Some(r) = welch(&b, &c) {
                assert!(no_nan(&r), "{b:?} {c:?}: {r:?}");
            }
            if let Some(r) = paired(&b[..2], &c[..2]) {
                assert!(no_nan(&r), "{b:?} {c:?}: {r:?}");
            }
        }
    }

    #[test]
    fn fieller_known_values() {
        // Reference ends from the roots of the quadratic in r,
        // (a - r b)² = t² (v₁ + r² v₂), by numpy.roots, with t from
        // scipy.stats.t.ppf(0.975, df) at the Welch df of the estimate.
        let r = fieller(&[2.0, 4.0, 6.0, 8.0, 10.0], &[1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
        assert!(close(r.ratio, 2.0, 1e-12));
        assert!(close(r.lo.unwrap(), 0.824_242_434_667, 1e-9), "{r:?}");
        assert!(close(r.hi.unwrap(), 4.852_941_115_09, 1e-9), "{r:?}");
        let r = fieller(
            &[50.0, 52.0, 49.0, 55.0, 51.0, 48.0],
            &[100.0, 104.0, 98.0, 103.0, 101.0, 99.0, 102.0],
        )
        .unwrap();
        assert!(close(r.ratio, 0.503_300_330_033, 1e-9));
        assert!(close(r.lo.unwrap(), 0.477_578_644_612, 1e-9), "{r:?}");
        assert!(close(r.hi.unwrap(), 0.529_398_465_198, 1e-9), "{r:?}");
        // A denominator whose mean is not clearly above 0 (g > 1): the
        // interval is unbounded, where the difference's interval divided
        // by the mean would have given two finite, wrong ends.
        let r = fieller(&[1.0, 2.0, 3.0], &[0.5, 1.5, 0.1]).unwrap();
        assert!(close(r.ratio, 2.0 / 0.7, 1e-12));
        assert_eq!((r.lo, r.hi), (None, None));
        // A large cut of a noisy positive quantity: the end stays above 0.
        let off = [10.0, 30.0, 5.0, 40.0, 12.0, 25.0];
        let on = [0.5, 1.0, 3.0, 0.2, 0.8, 1.5];
        let r = fieller(&on, &off).unwrap();
        assert!(r.lo.unwrap() > 0.0 && r.lo.unwrap() < r.ratio && r.ratio < r.hi.unwrap());
        // A numerator not clearly above 0 (three runs of the on state
        // count nothing): the normal model's lower end is below 0,
        // (0.5 - 0.6012) / (1 - 0.0176) = -0.103 here, and is cut at 0,
        // since no value is negative; with a negative value it is not.
        let off = [3.0, 4.0, 2.0, 3.5, 3.0, 2.5];
        let on = [0.0, 0.0, 3.0, 0.0, 0.0, 0.0];
        let r = fieller(&on, &off).unwrap();
        assert_eq!(r.lo, Some(0.0), "{r:?}");
        let mut signed = on;
        signed[0] = -0.0001;
        assert!(fieller(&signed, &off).unwrap().lo.unwrap() < 0.0);
        // No variance: the ratio is exact.
        let r = fieller(&[6.0, 6.0], &[3.0, 3.0]).unwrap();
        assert_eq!((r.ratio, r.lo, r.hi), (2.0, Some(2.0), Some(2.0)));
        assert_eq!(fieller(&[1.0], &[1.0, 2.0]), None);
        assert_eq!(fieller(&[1.0, 2.0], &[-1.0, 1.0]), None);
        assert_eq!(fieller(&[1.0, f64::NAN], &[1.0, 2.0]), None);
    }

    #[test]
    fn wilcoxon_known_values() {
        // Reference values: scipy.stats.wilcoxon(cmp, base), SciPy 1.17.
        // Distinct |d|, 8 pairs: the exact distribution.
        let b = [10.0, 12.5, 9.0, 14.0, 11.0, 13.0, 8.5, 10.5];
        let c = [11.5, 15.5, 8.0, 18.0, 16.0, 19.5, 10.5, 17.5];
        // d = 1.5, 3, -1, 4, 5, 6.5, 2, 7: R- = 1, SciPy statistic 1.0,
        // p = 0.015625 (4/256).
        let w = wilcoxon(&b, &c).unwrap();
        assert!(w.exact && w.n == 8, "{w:?}");
        assert_eq!(w.statistic, 1.0);
        assert!(close(w.p, 0.015_625, 1e-12), "{w:?}");
        // Student's sleep data: a zero difference (dropped, n = 9) and
        // ties; SciPy's method="approx" (normal, tie-corrected variance,
        // no continuity correction): statistic 0, p 0.007632441648205508.
        let w = wilcoxon(&SLEEP_1, &SLEEP_2).unwrap();
        assert!(!w.exact && w.n == 9, "{w:?}");
        assert_eq!(w.statistic, 0.0);
        assert!(close(w.p, 0.007_632_441_648_205_508, 1e-12), "{w:?}");
        // Sides swapped: the same two-sided p.
        assert_eq!(wilcoxon(&SLEEP_2, &SLEEP_1).unwrap().p, w.p);
        // More than 50 pairs: the normal approximation.  SciPy: 491.0,
        // p 0.0018004247616824562.
        let (b60, c60) = (&N60_BASE[..], &N60_CMP[..]);
        let w = wilcoxon(b60, c60).unwrap();
        assert!(!w.exact && w.n == 60, "{w:?}");
        assert_eq!(w.statistic, 491.0);
        assert!(close(w.p, 0.001_800_424_761_682_456, 1e-12), "{w:?}");
        // One outlier dominates the t-test, not the ranks: eleven pairs
        // shifted up by 1 to 2 and one down by 1000.  SciPy: t-test p
        // 0.347, Wilcoxon statistic 12, p 0.0341796875 (exact).
        let base = [100.0; 12];
        let mut cmp = [0.0; 12];
        for (i, c) in cmp.iter_mut().enumerate() {
            *c = 101.0 + 0.1 * i as f64;
        }
        cmp[11] = -900.0;
        let (t, w) = (paired(&base, &cmp).unwrap(), wilcoxon(&base, &cmp).unwrap());
        assert!(close(t.p, 0.347_192_913_611, 1e-9), "{t:?}");
        assert!(w.exact && close(w.p, 0.034_179_687_5, 1e-12), "{w:?}");
        // Nothing differs; bad input.
        assert_eq!(wilcoxon(&[1.0, 2.0], &[1.0, 2.0]).unwrap().p, 1.0);
        assert_eq!(wilcoxon(&[1.0], &[1.0, 2.0]), None);
        assert_eq!(wilcoxon(&[1.0, f64::NAN], &[1.0, 2.0]), None);
    }

    /// 60 pairs, from numpy's default_rng(1): base N(100, 10), cmp = base
    /// + N(2, 5), rounded to 3 decimals.
    const N60_BASE: [f64; 60] = [
        103.456, 108.216, 103.304, 86.968, 109.054, 104.464, 94.63, 105.811, 103.646, 102.941,
        100.284, 105.467, 92.635, 98.371, 95.179, 105.988, 100.397, 97.075, 92.181, 97.428,
        100.081, 97.244, 112.941, 110.067, 72.888, 81.11, 98.252, 95.778, 102.136, 102.173,
        121.178, 88.88, 96.224, 120.428, 106.467, 106.631, 94.86, 83.519, 101.675, 101.09, 87.726,
        93.168, 99.28, 90.552, 99.017, 100.955, 100.356, 94.937, 105.937, 108.912, 103.208, 91.818,
        107.317, 94.986, 108.792, 89.282, 109.145, 99.799, 87.513, 96.861,
    ];
    const N60_CMP: [f64; 60] = [
        105.727, 111.58, 100.393, 83.431, 112.052, 104.13, 97.808, 111.609, 97.402, 106.213,
        108.407, 105.979, 90.581, 104.132, 98.446, 112.467, 100.671, 91.666, 93.631, 97.199,
        105.958, 100.212, 106.787, 106.091, 79.307, 86.509, 97.051, 97.773, 106.364, 106.515,
        127.559, 92.162, 97.75, 121.134, 113.746, 97.377, 96.167, 85.684, 96.548, 104.754, 86.47,
        99.48, 100.652, 95.898, 107.111, 104.87, 97.977, 89.365, 116.704, 110.356, 101.765, 94.539,
        108.36, 101.247, 110.962, 91.351, 107.572, 104.147, 84.344, 102.19,
    ];

    #[test]
    fn tost_equivalence() {
        // Two tight, close samples (means 100 and 100.16) against ±2%
        // (±2.0): both one-sided tests reject (p 8.77e-4 and 2.19e-3, by
        // mpmath from the Welch t = (0.16 ± 2) / se).
        let b = [100.0, 101.0, 99.0, 100.5, 99.5];
        let c = [100.2, 101.1, 99.3, 100.4, 99.8];
        let r = tost(&b, &c, 0.02).unwrap();
        assert!(close(r.margin, 2.0, 1e-12));
        assert!(close(r.p, 0.002_188_107_834_42, 1e-9), "{r:?}");
        assert!(r.equivalent);
        // Wide samples (means 100 and 120): far from equivalent within 2%.
        let bw = [80.0, 120.0, 100.0];
        let cw = [95.0, 140.0, 125.0];
        let r = tost(&bw, &cw, 0.02).unwrap();
        assert!(close(r.p, 0.817_877_302_882, 1e-9), "{r:?}");
        assert!(!r.equivalent);
        // [1..5] vs [2, 4, .., 10] within ±50% of 3 (±1.5): diff 3 lies
        // outside, p = P(t(100/17) < (3 - 1.5)/√2.5) = 0.80995.
        let r = tost(&[1.0, 2.0, 3.0, 4.0, 5.0], &[2.0, 4.0, 6.0, 8.0, 10.0], 0.5).unwrap();
        assert!(close(r.margin, 1.5, 1e-12));
        assert!(close(r.p, 0.809_945_350_418, 1e-9), "{r:?}");
        assert!(!r.equivalent);
        // No variance: equivalent exactly when |diff| < margin.
        let r = tost(&[10.0, 10.0], &[10.5, 10.5], 0.1).unwrap();
        assert_eq!((r.p, r.margin, r.equivalent), (0.0, 1.0, true));
        let r = tost(&[10.0, 10.0], &[10.5, 10.5], 0.01).unwrap();
        assert_eq!((r.p, r.equivalent), (1.0, false));
        // Short input, a zero baseline mean, a bad margin.
        assert_eq!(tost(&[1.0], &[1.0, 2.0], 0.05), None);
        assert_eq!(tost(&[-1.0, 1.0], &[1.0, 2.0], 0.05), None);
        assert_eq!(tost(&b, &c, -0.05), None);
        assert_eq!(tost(&b, &c, f64::NAN), None);
    }

    #[test]
    fn resolution_and_iterations() {
        // Two samples of spread 1% around 100: MDE about 1.4 · 1% · ...
        let b = [99.0, 100.0, 101.0, 99.5, 100.5, 100.0, 99.0, 101.0];
        let c = [100.0, 99.0, 101.0, 100.5, 99.5, 100.0, 101.0, 99.0];
        let r = resolution(&b, &c).unwrap();
        let s = (r.var_base / 8.0 + r.var_cmp / 8.0).sqrt();
        let df = 14.0; // equal variances
        assert!(close(r.mde, ((t_quantile(0.975, df) + t_quantile(0.8, df)) * s).exp() - 1.0, 1e-3));
        assert!(r.equiv_floor < r.mde);
        // The MDE falls as 1/√n: four times the runs, half the MDE.
        let n = iterations_for(&r, r.mde / 2.0).unwrap();
        assert!((28..=34).contains(&n), "{n}");
        // What it asks for does reach the target, one fewer does not.
        let at = |n: usize| {
            let df = 2.0 * n as f64 - 2.0;
            ((t_quantile(0.975, df) + t_quantile(0.8, df))
                * ((r.var_base + r.var_cmp) / n as f64).sqrt())
            .exp()
                - 1.0
        };
        assert!(at(n) <= r.mde / 2.0 && at(n - 1) > r.mde / 2.0);
        // Its own n reproduces its own MDE.
        assert_eq!(iterations_for(&r, r.mde * 1.0001).unwrap(), 8);
        // No variance: anything is resolved.
        let k = [5.0, 5.0, 5.0];
        assert_eq!(resolution(&k, &k).unwrap().mde, 0.0);
        // Zeros (a counter): the linear scale over the baseline mean.
        let z = resolution(&[0.0, 2.0, 4.0], &[1.0, 2.0, 3.0]).unwrap();
        assert!(z.mde > 0.5);
        assert!(resolution(&[1.0], &[1.0, 2.0]).is_none());
    }

    #[test]
    fn minimum_equivalence_margin() {
        // (|diff| + t(0.95, df) · se) / |mean(base)|, by mpmath.
        // [1..5] vs [2, 4, .., 10]: (3 + 1.9467 · 1.5811) / 3 = 2.0278.
        let b5 = [1.0, 2.0, 3.0, 4.0, 5.0];
        let c5 = [2.0, 4.0, 6.0, 8.0, 10.0];
        let m = min_equivalence_margin(&b5, &c5).unwrap();
        assert!(close(m, 2.027_825_922_55, 1e-9), "{m}");
        let b = [100.0, 101.0, 99.0, 100.5, 99.5];
        let c = [100.2, 101.1, 99.3, 100.4, 99.8];
        let m = min_equivalence_margin(&b, &c).unwrap();
        assert!(close(m, 0.010_262_975_033_6, 1e-9), "{m}");
        let bw = [80.0, 120.0, 100.0];
        let cw = [95.0, 140.0, 125.0];
        let mw = min_equivalence_margin(&bw, &cw).unwrap();
        assert!(close(mw, 0.576_312_785_284, 1e-9), "{mw}");
        // It is the TOST bound: p = 0.05 there, equivalent just above,
        // not just below.
        for (b, c) in [(&b5[..], &c5[..]), (&b, &c), (&bw, &cw)] {
            let m = min_equivalence_margin(b, c).unwrap();
            assert!(close(tost(b, c, m).unwrap().p, 0.05, 1e-9));
            assert!(tost(b, c, m * 1.001).unwrap().equivalent);
            assert!(!tost(b, c, m * 0.999).unwrap().equivalent);
        }
        // No variance: |diff| / |mean(base)|.
        let m = min_equivalence_margin(&[10.0, 10.0], &[10.5, 10.5]).unwrap();
        assert!(close(m, 0.05, 1e-12));
        assert_eq!(min_equivalence_margin(&[1.0], &[1.0, 2.0]), None);
        assert_eq!(min_equivalence_margin(&[-1.0, 1.0], &[1.0, 2.0]), None);
    }
}
