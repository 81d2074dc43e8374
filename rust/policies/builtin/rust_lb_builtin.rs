// SPDX-License-Identifier: GPL-2.0

//! A policy module that answers every decision, each with the built-in
//! answer (`builtin()` of its input): it decides as the kernel does, through
//! the policy seam's static calls, so that the helpers' benchmark
//! (`tools/measure/helper-cost --policy`) shows what that path costs per call.

use kernel::c_str;
use kernel::prelude::*;
use kernel::sched::{math, policy};

kernel::module_policy! {
    type: Builtin,
    name: "rust_lb_builtin",
    author: "sched-rust-lb",
    description: "Balancing policy: every decision, answered as the built-in one",
    license: "GPL",
}

/// The policy: all fifteen decisions, as built in.
struct Builtin;

#[vtable]
impl policy::Policy for Builtin {
    const NAME: &'static CStr = c_str!("builtin");

    fn ilb_scan_depth(input: &math::IlbScan) -> u32 {
        input.builtin()
    }

    fn sis_util_scan(input: &math::SisUtil) -> u32 {
        input.builtin()
    }

    fn newidle_skip(input: &math::Newidle) -> bool {
        input.builtin()
    }

    fn ttwu_queue_cond(input: &math::TtwuQueue) -> bool {
        input.builtin()
    }

    fn spare_imbalance(input: &math::Spare) -> math::Imbalance {
        input.builtin()
    }

    fn serialize_try(input: &math::Serialize) -> bool {
        input.builtin()
    }

    fn wake_wide(input: &math::WakeWide) -> bool {
        input.builtin()
    }

    fn wake_affine(input: &math::WakeAffine) -> bool {
        input.builtin()
    }

    fn select_idle_sibling(input: &math::SelectIdleSibling) -> i32 {
        input.builtin()
    }

    fn can_migrate_task(input: &math::CanMigrateTask) -> bool {
        input.builtin()
    }

    fn find_busiest_queue(input: &math::FindBusiestQueue) -> i32 {
        input.builtin()
    }

    fn detach_tasks(input: &math::DetachTasks) -> u32 {
        input.builtin()
    }

    fn balance_interval(input: &math::BalanceInterval) -> u64 {
        input.builtin()
    }

    fn newidle_domain(input: &math::NewidleDomain) -> bool {
        input.builtin()
    }

    fn nohz_balancer_kick(input: &math::NohzBalancerKick) -> u32 {
        input.builtin()
    }
}
