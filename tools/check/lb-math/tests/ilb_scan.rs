// SPDX-License-Identifier: GPL-2.0

//! ILB_UTIL newidle scan depth (`ilb_scan_depth`) against the formula of
//! Chen Yu's RFC 3/4 (June 2023):
//! `nr_scan = nr_groups - nr_groups * sum_util / (span_weight * 1024)`,
//! with the scan loop of RFC 4/4 (`if (--nr_scan_ilb <= 0) break;` after
//! each visited group) turned into "groups visited".

use lb_math::math::{ilb_scan_depth, SCHED_CAPACITY_SCALE};
use proptest::prelude::*;

/// Reference in i128: the RFC's depth, then the loop's effect.
fn reference(nr_groups: u32, sum_util: u64, span_weight: u32) -> u32 {
    if nr_groups == 0 {
        return 0;
    }
    if span_weight == 0 {
        return nr_groups;
    }
    let n = i128::from(nr_groups);
    let busy = n * i128::from(sum_util) / (i128::from(span_weight) * 1024);
    let nr_scan = n - busy;
    // The loop visits one group before counting down: at least one.
    let visited = nr_scan.clamp(1, n);
    u32::try_from(visited).unwrap()
}

/// The RFC 4/4 loop, literally: visit, count down, stop at <= 0.
fn groups_visited(nr_groups: u32, nr_scan_ilb: i128) -> u32 {
    let mut left = nr_scan_ilb;
    let mut visited = 0;
    for _ in 0..nr_groups {
        visited += 1;
        left -= 1;
        if left <= 0 {
            break;
        }
    }
    visited
}

#[test]
fn constant() {
    assert_eq!(SCHED_CAPACITY_SCALE, 1 << 10);
}

/// The RFC's machine: Sapphire Rapids, 2 x 56C/112T. In one socket's LLC
/// (MC) domain the 112 CPUs form 56 SMT groups.
#[test]
fn sapphire_rapids_llc() {
    let (groups, span) = (56, 112);
    let cap = 112 * 1024;
    assert_eq!(ilb_scan_depth(groups, 0, span), 56); // idle: everything
    assert_eq!(ilb_scan_depth(groups, cap / 4, span), 42);
    assert_eq!(ilb_scan_depth(groups, cap / 2, span), 28);
    assert_eq!(ilb_scan_depth(groups, cap * 3 / 4, span), 14);
    assert_eq!(ilb_scan_depth(groups, cap * 99 / 100, span), 1);
    assert_eq!(ilb_scan_depth(groups, cap, span), 1); // saturated
    assert_eq!(ilb_scan_depth(groups, cap * 6 / 5, span), 1); // above capacity
}

#[test]
fn rounding_keeps_partial_groups() {
    // 3 groups at 50%: 3 - floor(1.5) = 2, the depth rounds up.
    assert_eq!(ilb_scan_depth(3, 3 * 512, 3), 2);
    // One utilization unit below full keeps one group.
    assert_eq!(ilb_scan_depth(4, 4 * 1024 - 1, 4), 1);
    // One unit of utilization does not remove a group.
    assert_eq!(ilb_scan_depth(4, 1, 4), 4);
}

#[test]
fn edges() {
    assert_eq!(ilb_scan_depth(0, 0, 0), 0);
    assert_eq!(ilb_scan_depth(0, u64::MAX, 8), 0);
    assert_eq!(ilb_scan_depth(7, 12345, 0), 7); // no span: scan all
    assert_eq!(ilb_scan_depth(7, u64::MAX, 0), 7);
    assert_eq!(ilb_scan_depth(1, 0, 1), 1); // one group
    assert_eq!(ilb_scan_depth(1, u64::MAX, 1), 1);
    assert_eq!(ilb_scan_depth(u32::MAX, 0, u32::MAX), u32::MAX);
    assert_eq!(ilb_scan_depth(u32::MAX, u64::MAX, u32::MAX), 1);
    // Largest product path: n * s overflows 64 bits, s < capacity.
    let cap = u64::from(u32::MAX) * 1024;
    assert_eq!(
        ilb_scan_depth(u32::MAX, cap - 1, u32::MAX),
        reference(u32::MAX, cap - 1, u32::MAX)
    );
    assert_eq!(
        ilb_scan_depth(u32::MAX, cap / 2, u32::MAX),
        reference(u32::MAX, cap / 2, u32::MAX)
    );
}

fn util() -> impl Strategy<Value = u64> {
    prop_oneof![
        0u64..=300_000,
        any::<u64>(),
        (1u64 << 32)..(1u64 << 43),
        Just(u64::MAX),
    ]
}

fn count() -> impl Strategy<Value = u32> {
    prop_oneof![0u32..=300, any::<u32>(), Just(u32::MAX), Just(1u32)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn matches_reference(n in count(), s in util(), w in count()) {
        prop_assert_eq!(ilb_scan_depth(n, s, w), reference(n, s, w));
    }

    #[test]
    fn matches_rfc_loop(n in 1u32..=4096, w in 1u32..=8192, frac in 0u64..=1500) {
        // Utilization from 0 to 150% of capacity.
        let s = u64::from(w) * 1024 * frac / 1000;
        let nr_scan = i128::from(n) - i128::from(n) * i128::from(s) / (i128::from(w) * 1024);
        prop_assert_eq!(ilb_scan_depth(n, s, w), groups_visited(n, nr_scan));
    }

    #[test]
    fn bounds_and_monotonic(n in count(), s in util(), w in count()) {
        let d = ilb_scan_depth(n, s, w);
        prop_assert!(d <= n);
        prop_assert!(n == 0 || d >= 1);
        // More utilization never deepens the scan.
        prop_assert!(ilb_scan_depth(n, s.saturating_add(1024), w) <= d);
    }
}
