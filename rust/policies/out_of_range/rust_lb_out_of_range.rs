// SPDX-License-Identifier: GPL-2.0

//! A policy module whose answers are out of range, to show what the seam
//! does with them: each is replaced by the built-in decision and counted
//! (`policy_rejected`), and after 64 of them the policy is detached, with
//! one line in the kernel log.  The module stays loaded, answering nothing,
//! until it is removed.

use kernel::c_str;
use kernel::prelude::*;
use kernel::sched::{math, policy};

kernel::module_policy! {
    type: OutOfRange,
    name: "rust_lb_out_of_range",
    author: "sched-rust-lb",
    description: "Balancing policy that answers out of range (a test of the seam)",
    license: "GPL",
}

/// The policy: scan depths past the domain, an imbalance of a kind this
/// case never computes, CPUs that do not exist or may not be chosen, a
/// budget past the runqueue's tasks, an interval of 0 and a kick flag that
/// does not exist.  (The yes/no decisions have no answer out of range.)
struct OutOfRange;

#[vtable]
impl policy::Policy for OutOfRange {
    const NAME: &'static CStr = c_str!("out_of_range");

    fn sis_util_scan(input: &math::SisUtil) -> u32 {
        input.llc_weight.saturating_add(1)
    }

    fn ilb_scan_depth(input: &math::IlbScan) -> u32 {
        input.nr_groups.saturating_add(1)
    }

    fn spare_imbalance(_input: &math::Spare) -> math::Imbalance {
        math::Imbalance {
            migration_type: math::MigrationType::Load,
            imbalance: u64::MAX,
        }
    }

    fn select_idle_sibling(_input: &math::SelectIdleSibling) -> i32 {
        // No such CPU.
        i32::MAX
    }

    fn find_busiest_queue(input: &math::FindBusiestQueue) -> i32 {
        // The balancing CPU itself, never the busiest.
        input.dst_cpu
    }

    fn detach_tasks(input: &math::DetachTasks) -> u32 {
        input.nr_running.saturating_add(1)
    }

    fn balance_interval(_input: &math::BalanceInterval) -> u64 {
        0
    }

    fn nohz_balancer_kick(_input: &math::NohzBalancerKick) -> u32 {
        // No kick flag.
        1 << 31
    }
}
