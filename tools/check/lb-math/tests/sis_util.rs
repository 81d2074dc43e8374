// SPDX-License-Identifier: GPL-2.0

//! SIS_UTIL scan depth (`sis_util_nr_idle_scan`) against
//! `update_idle_cpu_scan()` of Linux 6.12 (kernel/sched/fair.c):
//!
//! - an exact reference in u128 (equations [2], [3], [4] of the comment);
//! - a model of the C with its own 64-bit wrapping arithmetic, compared
//!   wherever the C does not overflow (its product `x * x * pct * pct`,
//!   its `int pct`).

use core::num::NonZeroU32;
use lb_math::math::{sis_util_nr_idle_scan, sis_util_nr_idle_scan_stock};
use proptest::prelude::*;

/// Exact reference: y = llc * (1024 - min(x^2 pct^2 / 10240000, 1024)) / 1024.
fn reference(sum_util: u64, llc_weight: u32, pct: u32) -> u32 {
    if llc_weight == 0 {
        return 0;
    }
    let x = u128::from(sum_util) / u128::from(llc_weight);
    let tmp = match x
        .checked_mul(x)
        .and_then(|v| v.checked_mul(u128::from(pct)))
        .and_then(|v| v.checked_mul(u128::from(pct)))
    {
        Some(p) => (p / 10_240_000).min(1024),
        None => 1024,
    };
    u32::try_from((1024 - tmp) * u128::from(llc_weight) / 1024).unwrap()
}

/// The C, statement by statement, with `u64` wrapping like the kernel's
/// `u64` and `do_div()` (a 64-by-32 division).
fn c_model(sum_util: u64, llc_weight: u32, imbalance_pct: u32) -> (i32, bool) {
    let llc_weight = llc_weight as i32;
    let x = sum_util / u64::from(llc_weight as u32);
    let pct = imbalance_pct as i32;
    // tmp = x * x * pct * pct; pct converts to u64 (sign-extended).
    let pct64 = pct as i64 as u64;
    let tmp = x.wrapping_mul(x).wrapping_mul(pct64).wrapping_mul(pct64);
    let overflow = (u128::from(x) * u128::from(x))
        .checked_mul(u128::from(imbalance_pct) * u128::from(imbalance_pct))
        .map_or(true, |p| p > u128::from(u64::MAX))
        // `int pct = imbalance_pct` wraps to a negative value.
        || imbalance_pct > i32::MAX as u32;
    let tmp = tmp / 10_240_000;
    // min_t(long, tmp, SCHED_CAPACITY_SCALE)
    let tmp = std::cmp::min(tmp as i64, 1024) as u64;
    let mut y = 1024u64.wrapping_sub(tmp);
    y = y.wrapping_mul(llc_weight as i64 as u64);
    y /= 1024;
    (y as i32, overflow)
}

/// An 8-CPU, 16-CPU and a 112-CPU LLC with the MC `imbalance_pct` of 117:
/// the scan shrinks quadratically and stops around 85% utilization
/// ("when sum_util hits 85% or above, the scan stops").
#[test]
fn llc_examples() {
    assert_eq!(sis_util_nr_idle_scan(0, 16, 117), 16);
    assert_eq!(sis_util_nr_idle_scan(4096, 16, 117), 14); // 25%
    assert_eq!(sis_util_nr_idle_scan(8192, 16, 117), 10); // 50%
    assert_eq!(sis_util_nr_idle_scan(12288, 16, 117), 3); // 75%
    assert_eq!(sis_util_nr_idle_scan(13926, 16, 117), 0); // 85%
    assert_eq!(sis_util_nr_idle_scan(16384, 16, 117), 0); // 100%
    assert_eq!(sis_util_nr_idle_scan(57344, 112, 117), 73); // 50%
    assert_eq!(sis_util_nr_idle_scan(68812, 112, 117), 56); // 60%
    assert_eq!(sis_util_nr_idle_scan(91750, 112, 117), 14); // 80%
    assert_eq!(sis_util_nr_idle_scan(97484, 112, 117), 1); // 85%
    assert_eq!(sis_util_nr_idle_scan(0, 8, 117), 8);
}

#[test]
fn edges() {
    assert_eq!(sis_util_nr_idle_scan(0, 0, 117), 0); // empty LLC
    assert_eq!(sis_util_nr_idle_scan(u64::MAX, 0, u32::MAX), 0);
    assert_eq!(sis_util_nr_idle_scan(u64::MAX, 1, 117), 0); // product overflows
    assert_eq!(sis_util_nr_idle_scan(u64::MAX, 16, 0), 16); // pct 0: no drop
    assert_eq!(sis_util_nr_idle_scan(0, u32::MAX, u32::MAX), u32::MAX);
    assert_eq!(sis_util_nr_idle_scan(u64::MAX, u32::MAX, u32::MAX), 0);
    // One CPU: y = floor((1024 - tmp) / 1024) is 1 only while tmp is 0,
    // i.e. x * 117 < 3200: up to a utilization of 27.
    assert_eq!(sis_util_nr_idle_scan(27, 1, 117), 1);
    assert_eq!(sis_util_nr_idle_scan(28, 1, 117), 0);
    assert_eq!(sis_util_nr_idle_scan(1024, 1, 117), 0);
}

fn util() -> impl Strategy<Value = u64> {
    prop_oneof![
        0u64..=200_000,
        0u64..=(1 << 40),
        any::<u64>(),
        Just(u64::MAX)
    ]
}

fn weight() -> impl Strategy<Value = u32> {
    prop_oneof![0u32..=512, any::<u32>(), Just(u32::MAX)]
}

fn pct() -> impl Strategy<Value = u32> {
    prop_oneof![100u32..=200, 0u32..=100_000, any::<u32>(), Just(u32::MAX)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn matches_reference(s in util(), w in weight(), p in pct()) {
        prop_assert_eq!(sis_util_nr_idle_scan(s, w, p), reference(s, w, p));
    }

    /// Bit-identical to the C wherever the C does not overflow (its
    /// product, its `int pct` and its `int` result).
    #[test]
    fn matches_c_model(s in util(), w in 1u32..=(i32::MAX as u32), p in pct()) {
        let (c, overflow) = c_model(s, w, p);
        let ours = sis_util_nr_idle_scan(s, w, p);
        if !overflow {
            prop_assert_eq!(i64::from(ours), i64::from(c));
        }
    }

    #[test]
    fn realistic_matches_c_model(
        w in 1u32..=1024,
        frac in 0u64..=1200,
        p in 100u32..=150,
    ) {
        let s = u64::from(w) * 1024 * frac / 1000;
        let (c, overflow) = c_model(s, w, p);
        prop_assert!(!overflow);
        prop_assert_eq!(i64::from(sis_util_nr_idle_scan(s, w, p)), i64::from(c));
    }

    /// The stock position's rule is the C bit for bit, its wrapped product
    /// included (for an `int pct`, as the C's).
    #[test]
    fn stock_matches_c_model(s in util(), w in 1u32..=(i32::MAX as u32),
                             p in 0u32..=(i32::MAX as u32)) {
        let (c, _) = c_model(s, w, p);
        let stock = sis_util_nr_idle_scan_stock(s, NonZeroU32::new(w).unwrap(), p);
        prop_assert_eq!(stock as i32, c);
    }

    /// ... and the general rule wherever `x * pct` stays below `2^32`,
    /// every utilization a CPU can have included.
    #[test]
    fn stock_matches_general(w in 1u32..=u32::MAX, p in 1u32..=100_000,
                             xf in 0.0f64..1.0, rf in 0.0f64..1.0) {
        // sum_util = x * w + r with x * p < 2^32 and r < w.
        let x = ((((1u64 << 32) - 1) / u64::from(p)) as f64 * xf) as u64;
        let r = (f64::from(w - 1) * rf) as u64;
        let s = x.saturating_mul(u64::from(w)).saturating_add(r);
        prop_assume!(s / u64::from(w) == x);
        let stock = sis_util_nr_idle_scan_stock(s, NonZeroU32::new(w).unwrap(), p);
        prop_assert_eq!(stock, sis_util_nr_idle_scan(s, w, p));
    }

    #[test]
    fn bounded_and_monotonic(s in util(), w in weight(), p in pct()) {
        let y = sis_util_nr_idle_scan(s, w, p);
        prop_assert!(y <= w);
        prop_assert!(sis_util_nr_idle_scan(s.saturating_add(u64::from(w)), w, p) <= y);
    }
}
