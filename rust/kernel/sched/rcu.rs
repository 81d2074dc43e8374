// SPDX-License-Identifier: GPL-2.0

//! RCU read-side critical sections.
//!
//! C header: [`include/linux/rcupdate.h`](srctree/include/linux/rcupdate.h).

use crate::bindings;
use core::marker::PhantomData;

/// An RCU read-side critical section, left when the guard is dropped.
///
/// Scheduling domains are freed through RCU when they are rebuilt (CPU
/// hotplug, cpuset changes), so every reference to them is tied to the
/// lifetime of a `Guard`.
///
/// # Invariants
///
/// The RCU read lock is held by the current CPU for as long as the guard
/// exists.  The guard is neither `Send` nor `Sync`: it must be dropped on
/// the CPU (or task, for preemptible RCU) that created it.
///
/// # Examples
///
/// ```
/// use kernel::sched::rcu;
///
/// let guard = rcu::Guard::new();
/// // ... read RCU-protected scheduler state through `&guard` ...
/// drop(guard);
/// ```
pub struct Guard {
    _not_send: PhantomData<*mut ()>,
}

impl Guard {
    /// Enters an RCU read-side critical section.
    #[inline]
    pub fn new() -> Self {
        // SAFETY: `rcu_read_lock()` may be called from any context; the
        // matching unlock is done by `Drop`.
        unsafe { bindings::rcu_read_lock() };
        // INVARIANT: the read lock was taken just above.
        Self {
            _not_send: PhantomData,
        }
    }
}

impl Default for Guard {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Guard {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: by the type invariant, this CPU holds the read lock taken
        // in `new()`.
        unsafe { bindings::rcu_read_unlock() };
    }
}
