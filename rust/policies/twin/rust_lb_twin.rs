// SPDX-License-Identifier: GPL-2.0

//! A policy module that answers two decisions as the built-in helpers do,
//! written out again here: the same-LLC wakelist condition and the newidle
//! skip.
//!
//! With `RUST_LB_VERIFY` on, the scheduler compares each of its answers
//! with the stock C; a correct twin shows no divergence
//! (`/sys/kernel/debug/sched/rust_lb_verify`), and `policy_decisions` in
//! `/sys/kernel/debug/sched/rust_lb` counts the answers taken.  Build it
//! with `make policy POLICY=rust/policies/twin`.

use kernel::c_str;
use kernel::prelude::*;
use kernel::sched::{math, policy};

module! {
    type: TwinModule,
    name: "rust_lb_twin",
    author: "sched-rust-lb",
    description: "Balancing policy: the built-in wakelist and newidle decisions, rewritten",
    license: "GPL",
}

/// The policy: only the two decisions below; the others stay built-in.
struct Twin;

#[vtable]
impl policy::Policy for Twin {
    const NAME: &'static CStr = c_str!("twin");

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
}

struct TwinModule {
    _policy: Pin<KBox<policy::Registration<Twin>>>,
}

impl kernel::Module for TwinModule {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(Self {
            _policy: KBox::pin_init(policy::Registration::new(), GFP_KERNEL)?,
        })
    }
}
