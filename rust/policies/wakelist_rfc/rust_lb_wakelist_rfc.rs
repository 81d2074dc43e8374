// SPDX-License-Identifier: GPL-2.0

//! A policy module with a heuristic that was proposed and never merged: the
//! same-LLC wakelist condition of the 2022 RFC "sched: Queue task on
//! wakelist in the same llc if the wakee cpu is idle" (Tianchen Ding,
//! 20220513062427.2375743-1-dtcccc@linux.alibaba.com), as far as the
//! decision's input shows it.
//!
//! The RFC added "queue when the wakee CPU is idle" in front of the rule of
//! its day and kept that rule: queue when the caller saw the wakee still
//! descheduling on its CPU (`WF_ON_CPU`) and that CPU runs at most one
//! other task.  What merged in v6.0 (f3dd3f674555) replaced both with one
//! test, `!cpu_rq(cpu)->nr_running`, so as not to stack a wakeup behind a
//! task that is running there.  This module measures what the dropped
//! clause did: it differs from the built-in decision exactly when the
//! wakee is still on its CPU and one task runs there, and queues then.
//!
//! The RFC's idle test was `available_idle_cpu()`, which also looks at the
//! CPU's current task and its pending wakelist; the input carries the
//! runqueue's length only, so "idle" is `nr_running == 0` here, as in what
//! merged.

use kernel::c_str;
use kernel::prelude::*;
use kernel::sched::{math, policy};

kernel::module_policy! {
    type: WakelistRfc,
    name: "rust_lb_wakelist_rfc",
    author: "sched-rust-lb",
    description: "Balancing policy: the 2022 RFC's wakelist condition, its WF_ON_CPU clause kept",
    license: "GPL",
}

/// The policy: the same-LLC wakelist condition only.
struct WakelistRfc;

#[vtable]
impl policy::Policy for WakelistRfc {
    const NAME: &'static CStr = c_str!("wakelist_rfc");

    fn ttwu_queue_cond(input: &math::TtwuQueue) -> bool {
        input.nr_running == 0 || (input.wakee_on_cpu && input.nr_running <= 1)
    }
}
