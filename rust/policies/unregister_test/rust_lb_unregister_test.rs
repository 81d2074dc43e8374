// SPDX-License-Identifier: GPL-2.0

//! A test module of the policy seam's unregistration: no CPU is in, or
//! enters, a policy's methods once its unregistration returns.
//!
//! It answers three frequent decisions as the built-in helpers do, and
//! counts the calls it enters and leaves.  When it is removed it logs how
//! many calls were still inside it once its registration was dropped and
//! how many it entered over the next [`WINDOW_NS`] (both must be 0),
//! beside the calls it entered over the same time just before (which shows
//! that the count works).  `policy.sh` loads and removes it under load.

use core::sync::atomic::{AtomicU64, Ordering};
use kernel::c_str;
use kernel::prelude::*;
use kernel::sched::{math, policy};
use kernel::time::Ktime;

kernel::module_policy! {
    type: Watched,
    name: "rust_lb_unregister_test",
    author: "sched-rust-lb",
    description: "Test of the balancing policy seam: no call after unregistration",
    license: "GPL",
}

/// Calls entered, and calls left, by any CPU.
static ENTERED: AtomicU64 = AtomicU64::new(0);
static LEFT: AtomicU64 = AtomicU64::new(0);
/// Calls entered over the window before the unregistration.
static BEFORE: AtomicU64 = AtomicU64::new(0);

/// The time over which the module counts the calls it enters, before and
/// after its unregistration.
const WINDOW_NS: i64 = 2_000_000;

/// Runs `answer`, counted as a call inside the module's text.
#[inline(always)]
fn inside<T>(answer: impl FnOnce() -> T) -> T {
    ENTERED.fetch_add(1, Ordering::SeqCst);
    let r = answer();
    LEFT.fetch_add(1, Ordering::SeqCst);
    r
}

/// The calls entered over the next [`WINDOW_NS`], waited for busily (the
/// other CPUs go on scheduling).
fn entered_over_window() -> u64 {
    let (start, t0) = (ENTERED.load(Ordering::SeqCst), Ktime::ktime_get());
    while (Ktime::ktime_get() - t0).to_ns() < WINDOW_NS {
        core::hint::spin_loop();
    }
    ENTERED.load(Ordering::SeqCst) - start
}

/// The policy: three decisions of the wakeup and newidle paths, as built
/// in, each call counted.
struct Watched;

#[vtable]
impl policy::Policy for Watched {
    const NAME: &'static CStr = c_str!("unregister_test");

    fn ttwu_queue_cond(input: &math::TtwuQueue) -> bool {
        inside(|| input.builtin())
    }

    fn newidle_skip(input: &math::Newidle) -> bool {
        inside(|| input.builtin())
    }

    fn select_idle_sibling(input: &math::SelectIdleSibling) -> i32 {
        inside(|| input.builtin())
    }

    fn unregistering() {
        BEFORE.store(entered_over_window(), Ordering::SeqCst);
    }

    fn unregistered() {
        // Left first: a call that straddles the two loads counts as inside.
        let left = LEFT.load(Ordering::SeqCst);
        let in_flight = ENTERED.load(Ordering::SeqCst) - left;
        let after = entered_over_window();
        pr_info!(
            "unregistered: {in_flight} calls inside, {after} entered in the {} us after ({} in the {} us before)\n",
            WINDOW_NS / 1000,
            BEFORE.load(Ordering::SeqCst),
            WINDOW_NS / 1000
        );
    }
}
