// SPDX-License-Identifier: GPL-2.0

//! Runqueues.
//!
//! C header: [`kernel/sched/rust_lb.h`](srctree/kernel/sched/rust_lb.h) (the
//! accessors: `struct rq` lives in `kernel/sched/sched.h`, which bindgen
//! cannot read).

use super::topology::CpuId;
use crate::{bindings, types::Opaque};

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

    /// The runqueue of `cpu`, `None` if `cpu` is not a possible CPU.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::sched::{rq::Rq, topology::CpuId};
    ///
    /// let cpu0 = CpuId::new(0).expect("CPU 0 exists");
    /// let _ = Rq::of_cpu(cpu0).expect("CPU 0 has a runqueue").avg_idle();
    /// ```
    #[inline]
    pub fn of_cpu(cpu: CpuId) -> Option<&'static Self> {
        // SAFETY: the accessor checks `cpu` and returns null or
        // `cpu_rq(cpu)`, valid forever.
        unsafe {
            bindings::sched_rust_lb_cpu_rq(cpu.as_c_int())
                .cast::<Self>()
                .as_ref()
        }
    }

    #[inline]
    fn as_raw(&self) -> *mut bindings::rq {
        self.0.get()
    }

    /// Average idle time of the CPU, in ns.
    #[inline]
    pub fn avg_idle(&self) -> u64 {
        // SAFETY: valid runqueue.
        unsafe { bindings::sched_rust_lb_rq_avg_idle(self.as_raw()) }
    }
}
