// SPDX-License-Identifier: GPL-2.0

//! RCU read-side critical sections.
//!
//! The shape of `kernel::sync::rcu` in later kernels: a [`Guard`] that
//! holds the read lock until it is dropped, and [`read_lock`].  6.12's
//! kernel crate has no `NotThreadSafe` yet, so the guard keeps itself off
//! other threads with a raw-pointer marker.
//!
//! C header: [`include/linux/rcupdate.h`](srctree/include/linux/rcupdate.h).

use crate::bindings;
use core::marker::PhantomData;

/// Proof that this CPU (or task, with preemptible RCU) is inside an RCU
/// read-side critical section; the section ends when the guard is dropped.
///
/// Scheduling domains are freed through RCU when they are rebuilt (CPU
/// hotplug, cpuset changes), so references to them borrow from a guard.
///
/// # Invariants
///
/// The RCU read lock is held for as long as the guard exists.  The guard is
/// neither `Send` nor `Sync`: the lock belongs to the context that took it.
///
/// # Examples
///
/// ```
/// use kernel::sync::rcu;
///
/// let guard = rcu::read_lock();
/// // ... read RCU-protected state through `&guard` ...
/// guard.unlock();
/// ```
pub struct Guard(PhantomData<*mut ()>);

impl Guard {
    /// Enters an RCU read-side critical section.
    #[inline]
    pub fn new() -> Self {
        // SAFETY: `rcu_read_lock()` may be called from any context; `Drop`
        // does the matching unlock.
        unsafe { bindings::rcu_read_lock() };
        // INVARIANT: the read lock was taken just above.
        Self(PhantomData)
    }

    /// Leaves the critical section (the same as dropping the guard).
    #[inline]
    pub fn unlock(self) {}
}

impl Default for Guard {
    #[inline]
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Guard {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: by the type invariant, the read lock taken in `new()` is
        // still held by this context.
        unsafe { bindings::rcu_read_unlock() };
    }
}

/// Enters an RCU read-side critical section, left when the returned guard
/// is dropped.
#[inline]
pub fn read_lock() -> Guard {
    Guard::new()
}
