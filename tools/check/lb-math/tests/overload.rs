// SPDX-License-Identifier: GPL-2.0

//! The newidle early exit with the root-domain overload indicator (Tim
//! Chen, 2014; `rd->overloaded` in 6.12) and the `sched_balance_running`
//! decision (Tim Chen / Peter Zijlstra, 2025).

use lb_math::math::{newidle_skip, serialize_should_try, NewidleSkip, RdOverload, Serialize};
use proptest::prelude::*;

/// The 2014 measurement: 0.13 ms of balancing before idling, against a
/// 0.5 ms migration cost (`sysctl_sched_migration_cost`).
fn rd(feature: bool, overloaded: bool) -> RdOverload {
    RdOverload {
        feature,
        overloaded,
    }
}

#[test]
fn newidle_early_exit() {
    let cost = 500_000;
    let skip = |overloaded, avg, cost| newidle_skip(rd(true, overloaded), || (avg, cost));
    // Not overloaded: skip whatever the idle time.
    assert_eq!(
        skip(false, u64::MAX, cost),
        Some(NewidleSkip::NotOverloaded)
    );
    assert_eq!(skip(false, 0, 0), Some(NewidleSkip::NotOverloaded));
    // Overloaded: balance only when the CPU idles long enough.
    assert_eq!(skip(true, 130_000, cost), Some(NewidleSkip::TooShort));
    assert_eq!(skip(true, cost, cost), None);
    assert_eq!(skip(true, 2_000_000, cost), None);
    assert_eq!(skip(true, 0, 0), None);
}

#[test]
fn serialize_order() {
    // Old order: always try; new order: only when due.
    let try_ = |serialize_due, due| serialize_should_try(Serialize { serialize_due, due });
    assert!(try_(false, false));
    assert!(try_(false, true));
    assert!(!try_(true, false));
    assert!(try_(true, true));
}

proptest! {
    /// `newidle_skip` against 6.12's early exit (`RD_OVERLOAD` on) and
    /// against the cost rule alone (off).
    #[test]
    fn newidle_skip_matches_c(overloaded in any::<bool>(), avg in any::<u64>(), cost in any::<u64>(),
                              near in 0u64..3) {
        for (avg, cost) in [(avg, cost), (cost.saturating_add(near).saturating_sub(1), cost)] {
            let stock = !overloaded || avg < cost;
            prop_assert_eq!(newidle_skip(rd(true, overloaded), || (avg, cost)).is_some(), stock);
            prop_assert_eq!(newidle_skip(rd(false, overloaded), || (avg, cost)).is_some(), avg < cost);
            // The indicator is the reason only when it decides.
            prop_assert_eq!(newidle_skip(rd(true, overloaded), || (avg, cost)) == Some(NewidleSkip::NotOverloaded),
                            !overloaded);
        }
    }
}
