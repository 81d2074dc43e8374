// SPDX-License-Identifier: GPL-2.0

//! A policy module that answers every decision as the built-in helpers and
//! the stock C do, written out again here.
//!
//! With `RUST_LB_VERIFY` on, the scheduler compares each of its answers
//! with the stock C; a correct twin shows no divergence
//! (`verify_mismatches_<decision>` in `/sys/kernel/debug/sched/rust_lb`),
//! and `policy_decisions` there counts the answers taken.  Build it
//! with `make policy POLICY=rust/policies/twin`.

use kernel::c_str;
use kernel::prelude::*;
use kernel::sched::{math, policy};

kernel::module_policy! {
    type: Twin,
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
        math::ilb_scan_depth(input.nr_groups, input.sum_util, input.span_weight)
    }

    fn sis_util_scan(input: &math::SisUtil) -> u32 {
        math::sis_util_nr_idle_scan(input.sum_util, input.llc_weight, input.imbalance_pct)
    }

    fn ttwu_queue_cond(input: &math::TtwuQueue) -> bool {
        // An idle wakee CPU takes the wakeup on its wakelist; without
        // TTWU_QUEUE_IDLE only when the wakee is still descheduling there.
        input.nr_running == 0 && (input.queue_idle || input.wakee_on_cpu)
    }

    fn newidle_skip(input: &math::Newidle) -> bool {
        // Nothing to pull while no runqueue is overloaded (RD_OVERLOAD), or
        // not idle long enough to pay for a balance.
        (input.rd_overload && !input.rd_overloaded)
            || input.avg_idle_ns < input.max_newidle_lb_cost_ns
    }

    fn spare_imbalance(input: &math::Spare) -> math::Imbalance {
        input.builtin()
    }

    fn serialize_try(input: &math::Serialize) -> bool {
        !input.serialize_due || input.due
    }

    fn wake_wide(input: &math::WakeWide) -> bool {
        // Both flip counts reach the LLC's size, and the larger reaches
        // that many times the smaller.
        let lo = input.waker_flips.min(input.wakee_flips);
        let hi = input.waker_flips.max(input.wakee_flips);
        lo >= input.llc_size && hi >= lo.wrapping_mul(input.llc_size)
    }

    fn wake_affine(input: &math::WakeAffine) -> bool {
        input.builtin()
    }

    fn select_idle_sibling(input: &math::SelectIdleSibling) -> i32 {
        input.stock
    }

    fn can_migrate_task(input: &math::CanMigrateTask) -> bool {
        // Cold, or hot but the domain failed to balance too often.
        input.hot <= 0 || input.nr_balance_failed > input.cache_nice_tries
    }

    fn find_busiest_queue(input: &math::FindBusiestQueue) -> i32 {
        input.stock
    }

    fn detach_tasks(input: &math::DetachTasks) -> u32 {
        core::cmp::min(input.nr_migrate, input.nr_running)
    }

    fn balance_interval(input: &math::BalanceInterval) -> u64 {
        input.interval.max(1).min(input.max_interval)
    }

    fn newidle_domain(input: &math::NewidleDomain) -> bool {
        // Idle long enough for what balancing cost so far and the domain.
        let cost = input
            .curr_cost_ns
            .wrapping_add(input.max_newidle_lb_cost_ns);
        input.avg_idle_ns >= cost
    }

    fn nohz_balancer_kick(input: &math::NohzBalancerKick) -> u32 {
        input.stock
    }
}
