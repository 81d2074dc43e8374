// SPDX-License-Identifier: GPL-2.0

//! Root-domain overload indicator (Tim Chen, 2014; `rd->overloaded` in
//! 6.12), the newidle early exit, the balance-due test and the
//! `sched_balance_running` decision (Tim Chen / Peter Zijlstra, 2025).

use lb_math::math::{
    add_nr_running_sets_overload, balance_is_due, newidle_skip, rd_overload_skip_newidle,
    rq_overloaded, serialize_should_try, NewidleSkip,
};
use proptest::prelude::*;

#[test]
fn rq_overloaded_table() {
    // "no more than 1 job per cpu" is not overloaded.
    assert!(!rq_overloaded(0, false));
    assert!(!rq_overloaded(1, false));
    assert!(rq_overloaded(2, false));
    assert!(rq_overloaded(u32::MAX, false));
    // A misfit task overloads on its own (SD_ASYM_CPUCAPACITY).
    assert!(rq_overloaded(0, true));
    assert!(rq_overloaded(1, true));
}

#[test]
fn add_nr_running_transitions() {
    // "We switch to full load balance load immediately if any cpu got
    // more than one job on its run queue in add_nr_running."
    assert!(add_nr_running_sets_overload(1, 1));
    assert!(add_nr_running_sets_overload(0, 2));
    assert!(!add_nr_running_sets_overload(0, 1));
    assert!(!add_nr_running_sets_overload(0, 0));
    assert!(!add_nr_running_sets_overload(1, 0));
    // Already at 2 or more: already set, no transition.
    assert!(!add_nr_running_sets_overload(2, 1));
    // The C unsigned sum would wrap to 0 here; saturation keeps it >= 2.
    assert!(add_nr_running_sets_overload(1, u32::MAX));
}

/// The 2014 measurement: 0.13 ms of balancing before idling, against a
/// 0.5 ms migration cost (`sysctl_sched_migration_cost`).
#[test]
fn newidle_early_exit() {
    let cost = 500_000;
    // Not overloaded: skip whatever the idle time.
    assert!(rd_overload_skip_newidle(false, u64::MAX, cost));
    assert!(rd_overload_skip_newidle(false, 0, 0));
    // Overloaded: balance only when the CPU idles long enough.
    assert!(rd_overload_skip_newidle(true, 130_000, cost));
    assert!(!rd_overload_skip_newidle(true, cost, cost));
    assert!(!rd_overload_skip_newidle(true, 2_000_000, cost));
    assert!(!rd_overload_skip_newidle(true, 0, 0));
}

#[test]
fn due_and_serialize() {
    assert!(balance_is_due(100, 90, 10));
    assert!(!balance_is_due(99, 90, 10));
    // jiffies wrapped past zero.
    assert!(balance_is_due(5, u64::MAX - 10, 10));
    assert!(!balance_is_due(u64::MAX - 5, u64::MAX - 10, 10));
    // Old order: always try; new order: only when due.
    assert!(serialize_should_try(false, false));
    assert!(serialize_should_try(false, true));
    assert!(!serialize_should_try(true, false));
    assert!(serialize_should_try(true, true));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn overloaded_is_more_than_one(nr in any::<u32>(), misfit in any::<bool>()) {
        prop_assert_eq!(rq_overloaded(nr, misfit), nr >= 2 || misfit);
    }

    #[test]
    fn add_nr_running_reference(prev in prop_oneof![0u32..4, any::<u32>()], count in prop_oneof![0u32..4, any::<u32>()]) {
        let after = u64::from(prev) + u64::from(count);
        prop_assert_eq!(add_nr_running_sets_overload(prev, count), prev < 2 && after >= 2);
    }

    #[test]
    fn skip_newidle_reference(o in any::<bool>(), idle in any::<u64>(), cost in any::<u64>()) {
        prop_assert_eq!(rd_overload_skip_newidle(o, idle, cost), !o || idle < cost);
    }

    /// time_after_eq: due iff now is at most 2^63 - 1 jiffies past the
    /// deadline, modulo 2^64.
    #[test]
    fn due_reference(now in any::<u64>(), last in any::<u64>(), interval in any::<u64>()) {
        let deadline = (u128::from(last) + u128::from(interval)) % (1u128 << 64);
        let ahead = (u128::from(now) + (1u128 << 64) - deadline) % (1u128 << 64);
        prop_assert_eq!(balance_is_due(now, last, interval), ahead < (1u128 << 63));
    }

    #[test]
    fn due_without_wrap(last in 0u64..(1 << 40), interval in 0u64..(1 << 20), dt in 0u64..(1 << 21)) {
        let now = last + dt;
        prop_assert_eq!(balance_is_due(now, last, interval), now >= last + interval);
    }
}

proptest! {
    /// `newidle_skip` against 6.12's early exit (`RD_OVERLOAD` on) and
    /// against the cost rule alone (off).
    #[test]
    fn newidle_skip_matches_c(overloaded in any::<bool>(), avg in any::<u64>(), cost in any::<u64>(),
                              near in 0u64..3) {
        for (avg, cost) in [(avg, cost), (cost.saturating_add(near).saturating_sub(1), cost)] {
            let stock = !overloaded || avg < cost;
            prop_assert_eq!(newidle_skip(true, overloaded, || (avg, cost)).is_some(), stock);
            prop_assert_eq!(newidle_skip(false, overloaded, || (avg, cost)).is_some(), avg < cost);
            // The indicator is the reason only when it decides.
            prop_assert_eq!(newidle_skip(true, overloaded, || (avg, cost)) == Some(NewidleSkip::NotOverloaded),
                            !overloaded);
        }
    }
}
