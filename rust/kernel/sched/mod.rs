// SPDX-License-Identifier: GPL-2.0

//! Scheduler topology and load-balancing state.
//!
//! Safe views of the structures the fair class balances with: the scheduling
//! domains of a CPU, the state its last-level cache shares, and the RCU read
//! side that keeps them alive.  References handed out here borrow from a
//! [`crate::sync::rcu::Guard`], so they cannot outlive the read-side
//! critical section that protects them.
//!
//! State that only `kernel/sched/sched.h` describes is read without calls:
//! the fields of `struct rq` and `struct sched_group` at the constant offsets
//! of `<generated/sched-rust-lb-offsets.h>` (each checked against the size
//! of the Rust type read here when the crate is built), and the per-CPU
//! variables that `kernel/sched/rust_lb.h` declares again for bindgen.
//!
//! C headers: [`include/linux/sched/topology.h`](srctree/include/linux/sched/topology.h),
//! [`kernel/sched/rust_lb.h`](srctree/kernel/sched/rust_lb.h).

pub mod lb;
pub mod math;
pub mod policy;
pub mod rq;
pub mod topology;

use crate::bindings;
use core::mem::size_of;

// The sizes of the private fields read at the generated offsets are those
// of the types they are read as.
const _: () = {
    assert!(bindings::RUST_LB_RQ_SD_SIZE as usize == size_of::<*mut bindings::sched_domain>());
    assert!(bindings::RUST_LB_RQ_AVG_IDLE_SIZE as usize == size_of::<u64>());
    assert!(bindings::RUST_LB_SG_NEXT_SIZE as usize == size_of::<*mut bindings::sched_group>());
    assert!(bindings::RUST_LB_SG_GROUP_WEIGHT_SIZE as usize == size_of::<u32>());
    assert!(bindings::RUST_LB_SG_CORES_SIZE as usize == size_of::<u32>());
};

/// Reads the field at byte `offset` of the C struct at `base`, a field
/// nothing writes while the reader can see the struct (a group's `cores`,
/// `group_weight` and `next` once its domain is attached): a plain load,
/// which the compiler may move to where the value is used, as it does
/// with C's `sg->cores`.
///
/// # Safety
///
/// `base` points to a live struct whose field at `offset` (one of the
/// generated `RUST_LB_*` offsets) has type `T`, and no one writes that
/// field while it is read.
#[inline(always)]
unsafe fn read_fixed_field<T: Copy, S>(base: *const S, offset: u32) -> T {
    // SAFETY: the field lies within the live struct at `base` and has type
    // `T`, and nothing writes it concurrently (safety requirements).
    unsafe { base.cast::<u8>().add(offset as usize).cast::<T>().read() }
}

/// Reads, once (as C's `READ_ONCE()`), the field at byte `offset` of the C
/// struct at `base`.
///
/// # Safety
///
/// `base` points to a live struct whose field at `offset` (one of the
/// generated `RUST_LB_*` offsets) has type `T`.
#[inline(always)]
unsafe fn read_field<T: Copy, S>(base: *const S, offset: u32) -> T {
    // SAFETY: the field lies within the live struct at `base` and has type
    // `T` (safety requirements); a volatile read is `READ_ONCE()`.
    unsafe {
        base.cast::<u8>()
            .add(offset as usize)
            .cast::<T>()
            .read_volatile()
    }
}
