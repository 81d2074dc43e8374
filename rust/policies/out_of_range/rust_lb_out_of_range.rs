// SPDX-License-Identifier: GPL-2.0

//! A policy module whose answers are out of range, to show what the seam
//! does with them: each is replaced by the built-in decision and counted
//! (`policy_rejected`), and after 64 of them the policy is detached, with
//! one line in the kernel log.  The module stays loaded, answering nothing,
//! until it is removed.

use kernel::c_str;
use kernel::prelude::*;
use kernel::sched::{math, policy};

module! {
    type: OutOfRangeModule,
    name: "rust_lb_out_of_range",
    author: "sched-rust-lb",
    description: "Balancing policy that answers out of range (a test of the seam)",
    license: "GPL",
}

/// The policy: scan depths past the domain and an imbalance of a kind
/// this case never computes.
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
}

struct OutOfRangeModule {
    _policy: Pin<KBox<policy::Registration<OutOfRange>>>,
}

impl kernel::Module for OutOfRangeModule {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(Self {
            _policy: KBox::pin_init(policy::Registration::new(), GFP_KERNEL)?,
        })
    }
}
