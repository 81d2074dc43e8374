// SPDX-License-Identifier: GPL-2.0

//! The same-LLC wakelist rule of `ttwu_queue_cond()` (Tianchen Ding, 2022)
//! against the two upstream versions it switches between.

use lb_math::math::{ttwu_wakelist_same_llc, TtwuQueue};
use proptest::prelude::*;

/// f3dd3f674555 ("sched: Remove the limitation of WF_ON_CPU on wakelist if
/// wakee cpu is idle"): `if (!cpu_rq(cpu)->nr_running) return true;`.
fn since_2022(nr_running: u32) -> bool {
    nr_running == 0
}

/// Just before it, after 28156108fecb ("sched: Fix the check of
/// nr_running at queue wakelist"):
/// `if ((wake_flags & WF_ON_CPU) && !cpu_rq(cpu)->nr_running) return true;`.
fn before_2022(nr_running: u32, wf_on_cpu: bool) -> bool {
    wf_on_cpu && nr_running == 0
}

/// The rule for a wakee CPU running `nr_running` tasks, the wakee seen
/// still on it or not, under `TTWU_QUEUE_IDLE` or not.
fn queued(nr_running: u32, wakee_on_cpu: bool, queue_idle: bool) -> bool {
    ttwu_wakelist_same_llc(TtwuQueue {
        nr_running,
        wakee_on_cpu,
        queue_idle,
    })
}

#[test]
fn table() {
    // An idle wakee CPU: queued with the 2022 rule, not before it...
    assert!(queued(0, false, true));
    assert!(!queued(0, false, false));
    // ...unless the caller saw the wakee still on that CPU.
    assert!(queued(0, true, false));
    // Another task runs there: never (no stacking), in both positions.
    for on_cpu in [false, true] {
        for feat in [false, true] {
            assert!(!queued(1, on_cpu, feat));
        }
    }
}

proptest! {
    #[test]
    fn matches_upstream(nr in 0u32..4, big in any::<u32>(), on_cpu in any::<bool>()) {
        for nr in [nr, big] {
            prop_assert_eq!(queued(nr, on_cpu, true), since_2022(nr));
            prop_assert_eq!(queued(nr, on_cpu, false), before_2022(nr, on_cpu));
        }
    }

    /// The 2022 rule only adds wakeups: whatever the old rule queued, the
    /// new one queues too.
    #[test]
    fn new_rule_is_a_superset(nr in any::<u32>(), on_cpu in any::<bool>()) {
        if queued(nr, on_cpu, false) {
            prop_assert!(queued(nr, on_cpu, true));
        }
    }
}
