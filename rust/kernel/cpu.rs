// SPDX-License-Identifier: GPL-2.0

//! CPU numbers.
//!
//! C header: [`include/linux/cpumask.h`](srctree/include/linux/cpumask.h).
//!
//! The shape of later kernels' `kernel::cpu::CpuId` (`from_u32`,
//! `as_u32`, conversions into `u32` and `i32`), so that code written
//! against it moves between them.

use crate::bindings;

/// Number of possible CPU ids (`nr_cpu_ids`): CPUs are numbered below it.
#[inline]
pub fn nr_cpu_ids() -> u32 {
    // SAFETY: `nr_cpu_ids` is set during early boot and only read after.
    unsafe { bindings::nr_cpu_ids }
}

/// A CPU number.
///
/// # Invariants
///
/// The id is below `nr_cpu_ids`, so it fits a C `int`.  The CPU need not be
/// possible (the possible mask may have holes) nor online: the accessors
/// that take a `CpuId` check that themselves.
///
/// # Examples
///
/// ```
/// use kernel::cpu::{nr_cpu_ids, CpuId};
///
/// let cpu0 = CpuId::from_u32(0).expect("CPU 0 exists");
/// assert_eq!(cpu0.as_u32(), 0);
/// assert_eq!(i32::from(cpu0), 0);
/// // No CPU lies past the last id.
/// assert!(CpuId::from_u32(nr_cpu_ids()).is_none());
/// assert!(CpuId::from_i32(-1).is_none());
/// assert_eq!(CpuId::all().count() as u32, nr_cpu_ids());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuId(u32);

impl CpuId {
    /// The CPU numbered `id`, `None` if `id` is not below `nr_cpu_ids`.
    #[inline]
    pub fn from_u32(id: u32) -> Option<Self> {
        // INVARIANT: checked just here.
        (id < nr_cpu_ids()).then_some(Self(id))
    }

    /// The CPU numbered `id`, `None` if `id` is negative or not below
    /// `nr_cpu_ids`.
    #[inline]
    pub fn from_i32(id: i32) -> Option<Self> {
        u32::try_from(id).ok().and_then(Self::from_u32)
    }

    /// A CPU number that C hands over as valid.
    ///
    /// # Safety
    ///
    /// `id` is below `nr_cpu_ids` (e.g. `env->dst_cpu` of a balance).
    #[inline]
    pub unsafe fn from_u32_unchecked(id: u32) -> Self {
        // INVARIANT: the caller's promise.
        Self(id)
    }

    /// A CPU number that C hands over as valid, as the `int` C keeps it in.
    ///
    /// # Safety
    ///
    /// `id` is not negative and below `nr_cpu_ids`.
    #[inline]
    pub unsafe fn from_i32_unchecked(id: i32) -> Self {
        // INVARIANT: the caller's promise.
        Self(id as u32)
    }

    /// Every CPU number, `0..nr_cpu_ids`.
    #[inline]
    pub fn all() -> impl Iterator<Item = Self> {
        // INVARIANT: every id of the range is below `nr_cpu_ids`.
        (0..nr_cpu_ids()).map(Self)
    }

    /// The number.
    #[inline]
    pub fn as_u32(&self) -> u32 {
        self.0
    }
}

impl From<CpuId> for u32 {
    #[inline]
    fn from(cpu: CpuId) -> Self {
        cpu.as_u32()
    }
}

impl From<CpuId> for i32 {
    /// The number as the `int` that C functions take.
    #[inline]
    fn from(cpu: CpuId) -> Self {
        // By the type invariant the id is below `nr_cpu_ids`, which
        // `CONFIG_NR_CPUS` bounds far below `i32::MAX`.
        cpu.as_u32() as i32
    }
}
