// SPDX-License-Identifier: GPL-2.0

//! Runqueues.
//!
//! C header: [`kernel/sched/rust_lb.h`](srctree/kernel/sched/rust_lb.h)
//! (`struct rq` lives in `kernel/sched/sched.h`, which bindgen cannot read:
//! its fields are read at the generated offsets, see [`super`]).

use super::read_field;
use crate::cpu::CpuId;
use crate::{bindings, percpu::per_cpu_ptr, types::Opaque};

/// A CPU's runqueue (`struct rq`).
///
/// # Invariants
///
/// Points to the runqueue of a possible CPU; runqueues are never freed.
#[repr(transparent)]
pub struct Rq(Opaque<bindings::rq>);

impl Rq {
    /// Creates a reference from the C pointer.
    ///
    /// # Safety
    ///
    /// `ptr` is the runqueue of a possible CPU (`cpu_rq()`).
    #[inline]
    pub unsafe fn from_raw<'a>(ptr: *mut bindings::rq) -> &'a Self {
        // SAFETY: transparent wrapper; runqueues live forever.
        // INVARIANT: the caller promises the runqueue of a possible CPU.
        unsafe { &*ptr.cast::<Self>() }
    }

    /// The runqueue of `cpu` (`cpu_rq()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::{cpu::CpuId, sched::rq::Rq};
    ///
    /// let cpu0 = CpuId::from_u32(0).expect("CPU 0 exists");
    /// let _ = Rq::of_cpu(cpu0).avg_idle();
    /// ```
    #[inline]
    pub fn of_cpu(cpu: CpuId) -> &'static Self {
        // SAFETY: `runqueues` is a per-CPU variable and `cpu` a CPU below
        // `nr_cpu_ids` (type invariant); its runqueue lives forever.
        unsafe {
            let rq = per_cpu_ptr(
                core::ptr::addr_of!(bindings::runqueues),
                cpu.as_u32() as usize,
            );
            Self::from_raw(rq.cast_mut())
        }
    }

    #[inline]
    fn as_raw(&self) -> *mut bindings::rq {
        self.0.get()
    }

    /// Average idle time of the CPU, in ns.
    #[inline]
    pub fn avg_idle(&self) -> u64 {
        // SAFETY: a valid runqueue (type invariant), whose `avg_idle` is a
        // `u64` at the generated offset.
        unsafe { read_field(self.as_raw(), bindings::RUST_LB_RQ_AVG_IDLE) }
    }
}
