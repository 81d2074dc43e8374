// SPDX-License-Identifier: GPL-2.0

//! Load-balancing and wakeup helpers of the fair class, in Rust.
//!
//! This crate is built into the kernel as `kernel/sched/rust_lb/` when
//! `CONFIG_SCHED_RUST_LB=y`.  The C side (`kernel/sched/fair.c`,
//! `kernel/sched/core.c`) keeps short shims that, behind a sched feature,
//! call the `extern "C"` entry points defined here; the policy itself is in
//! safe Rust over the abstractions of `kernel::sched`, and its arithmetic in
//! [`math`], a file that the host crate `tools/lb-math` also compiles and
//! property-tests.
//!
//! C header: [`kernel/sched/rust_lb.h`](srctree/kernel/sched/rust_lb.h).

// The crate root's modules live in sched_lb/, next to it.
#[path = "sched_lb/math.rs"]
pub mod math;

/// Prefix of this crate's log messages.
const __LOG_PREFIX: &[u8] = b"sched_rust_lb\0";

/// ILB_UTIL's newidle scan depth: how many of `nr_groups` groups a newly
/// idle CPU scans when the domain's `span_weight` CPUs run `sum_util`.
///
/// Called from C as `rust_lb_ilb_scan_depth()`; see [`math::ilb_scan_depth`].
#[no_mangle]
pub extern "C" fn rust_lb_ilb_scan_depth(nr_groups: u32, sum_util: u64, span_weight: u32) -> u32 {
    math::ilb_scan_depth(nr_groups, sum_util, span_weight)
}
