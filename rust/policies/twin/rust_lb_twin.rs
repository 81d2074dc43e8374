// SPDX-License-Identifier: GPL-2.0

//! A policy module that answers every decision as the built-in helpers and
//! the stock C do, written out again here.

//! With `RUST_LB_VERIFY` on, the scheduler compares each of its answers
//! with the stock C; a correct twin shows no divergence
//! (`verify_mismatches_<decision>` in `/sys/kernel/debug/sched/rust_lb`),
//! and `policy_decisions` there counts the answers taken.  Build it
//! with `make policy POLICY=rust/policies/twin`.
//!
//! It also watches its own text: it counts the calls it is inside and the
//! calls it has entered, and when it is removed it logs, after its
//! registration is dropped, how many calls were still inside it and how
//! many it entered over the next [`WINDOW_NS`] (both must be 0: the
//! scheduler never calls a policy after its unregistration returns), beside
//! the calls it entered over the same time just before (which shows the
//! count works).

use core::sync::atomic::{AtomicU64, Ordering};
use kernel::c_str;
use kernel::prelude::*;
use kernel::sched::{math, policy};
use kernel::time::Ktime;

module! {
    type: TwinModule,
    name: "rust_lb_twin",
    author: "sched-rust-lb",
    description: "Balancing policy: every built-in decision, rewritten",
    license: "GPL",
}

/// The policy: every decision, as stock.
struct Twin;

#[vtable]
impl policy::Policy for Twin {
    const NAME: &'static CStr = c_str!("twin");

    fn ilb_scan_depth(input: &math::IlbScan) -> u32 {
        inside(|| math::ilb_scan_depth(input.nr_groups, input.sum_util, input.span_weight))
    }

    fn sis_util_scan(input: &math::SisUtil) -> u32 {
        inside(|| {
            math::sis_util_nr_idle_scan(input.sum_util, input.llc_weight, input.imbalance_pct)
        })
    }

    fn ttwu_queue_cond(input: &math::TtwuQueue) -> bool {
        // An idle wakee CPU takes the wakeup on its wakelist; without
        // TTWU_QUEUE_IDLE only when the wakee is still descheduling there.
        inside(|| input.nr_running == 0 && (input.queue_idle || input.wakee_on_cpu))
    }

    fn newidle_skip(input: &math::Newidle) -> bool {
        // Nothing to pull while no runqueue is overloaded (RD_OVERLOAD), or
        // not idle long enough to pay for a balance.
        inside(|| {
            (input.rd_overload && !input.rd_overloaded)
                || input.avg_idle_ns < input.max_newidle_lb_cost_ns
        })
    }

    fn spare_imbalance(input: &math::Spare) -> math::Imbalance {
        inside(|| input.builtin())
    }

    fn serialize_try(input: &math::Serialize) -> bool {
        inside(|| !input.serialize_due || input.due)
    }

    fn wake_wide(input: &math::WakeWide) -> bool {
        // Both flip counts reach the LLC's size, and the larger reaches
        // that many times the smaller.
        inside(|| {
            let lo = input.waker_flips.min(input.wakee_flips);
            let hi = input.waker_flips.max(input.wakee_flips);
            lo >= input.llc_size && hi >= lo.wrapping_mul(input.llc_size)
        })
    }

    fn wake_affine(input: &math::WakeAffine) -> bool {
        inside(|| input.builtin())
    }

    fn select_idle_sibling(input: &math::SelectIdleSibling) -> i32 {
        inside(|| input.stock)
    }

    fn can_migrate_task(input: &math::CanMigrateTask) -> bool {
        // Cold, or hot but the domain failed to balance too often.
        inside(|| input.hot <= 0 || input.nr_balance_failed > input.cache_nice_tries)
    }

    fn find_busiest_queue(input: &math::FindBusiestQueue) -> i32 {
        inside(|| input.stock)
    }

    fn detach_tasks(input: &math::DetachTasks) -> u32 {
        inside(|| core::cmp::min(input.nr_migrate, input.nr_running))
    }

    fn balance_interval(input: &math::BalanceInterval) -> u64 {
        inside(|| input.interval.max(1).min(input.max_interval))
    }

    fn newidle_domain(input: &math::NewidleDomain) -> bool {
        inside(|| {
            let cost = input
                .curr_cost_ns
                .wrapping_add(input.max_newidle_lb_cost_ns);
            input.avg_idle_ns >= cost
        })
    }

    fn nohz_balancer_kick(input: &math::NohzBalancerKick) -> u32 {
        inside(|| input.stock)
    }
}

/// Calls entered, and calls left, by any CPU.
static ENTERED: AtomicU64 = AtomicU64::new(0);
static LEFT: AtomicU64 = AtomicU64::new(0);

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

struct TwinModule {
    policy: Option<Pin<KBox<policy::Registration<Twin>>>>,
}

impl kernel::Module for TwinModule {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(Self {
            policy: Some(KBox::pin_init(policy::Registration::new(), GFP_KERNEL)?),
        })
    }
}

impl Drop for TwinModule {
    fn drop(&mut self) {
        let before = entered_over_window();
        // Unregisters: once this returns, no CPU may be inside, or enter,
        // the policy's methods.
        drop(self.policy.take());
        // Left first: a call that straddles the two loads counts as inside.
        let left = LEFT.load(Ordering::SeqCst);
        let in_flight = ENTERED.load(Ordering::SeqCst) - left;
        let after = entered_over_window();
        pr_info!(
            "unregistered: {in_flight} calls inside, {after} entered in the {} us after ({before} in the {} us before)\n",
            WINDOW_NS / 1000,
            WINDOW_NS / 1000
        );
    }
}
