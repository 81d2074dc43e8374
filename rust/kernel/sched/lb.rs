// SPDX-License-Identifier: GPL-2.0

//! The state of one load-balancing pass of the fair class.
//!
//! C headers: [`kernel/sched/fair_lb.h`](srctree/kernel/sched/fair_lb.h),
//! [`kernel/sched/rust_lb.h`](srctree/kernel/sched/rust_lb.h).

use super::math::{Imbalance, IMBALANCE_MAX};
use super::topology::{llc_size, SchedDomain, SchedDomainShared, SchedGroup};
use crate::cpu::CpuId;
use crate::{bindings, percpu::per_cpu_ptr, types::Opaque};

/// How idle the CPU doing the balance is (`enum cpu_idle_type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdleType {
    /// `__CPU_NOT_IDLE`: periodic balance of a busy CPU.
    NotIdle,
    /// `CPU_IDLE`: periodic balance of an idle CPU.
    Idle,
    /// `CPU_NEWLY_IDLE`: the CPU is about to go idle (newidle balance).
    NewlyIdle,
}

/// The kind of a group at balance time (`enum group_type`), ordered by
/// pulling priority as in C.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum GroupType {
    /// `group_has_spare`.
    HasSpare,
    /// `group_fully_busy`.
    FullyBusy,
    /// `group_misfit_task`.
    MisfitTask,
    /// `group_smt_balance`.
    SmtBalance,
    /// `group_asym_packing`.
    AsymPacking,
    /// `group_imbalanced`.
    Imbalanced,
    /// `group_overloaded`.
    Overloaded,
}

impl GroupType {
    fn from_raw(t: bindings::group_type) -> Self {
        match t {
            bindings::group_type_group_has_spare => Self::HasSpare,
            bindings::group_type_group_fully_busy => Self::FullyBusy,
            bindings::group_type_group_misfit_task => Self::MisfitTask,
            bindings::group_type_group_smt_balance => Self::SmtBalance,
            bindings::group_type_group_asym_packing => Self::AsymPacking,
            bindings::group_type_group_imbalanced => Self::Imbalanced,
            _ => Self::Overloaded,
        }
    }
}

/// The environment of one load-balancing pass (`struct lb_env`).
///
/// # Invariants
///
/// Points to the `lb_env` of a balance in progress on the current CPU,
/// which owns it (it lives on that CPU's stack); the balance runs inside an
/// RCU read-side critical section that outlives every `&LbEnv`.  Its
/// `dst_cpu` is a CPU number below `nr_cpu_ids` (the CPU that pulls: the
/// balancing CPU, the idle CPU a nohz balance works for, or the
/// replacement that `LBF_DST_PINNED` picks from the domain's span).
#[repr(transparent)]
pub struct LbEnv(Opaque<bindings::lb_env>);

impl LbEnv {
    /// Creates a reference from the C pointer.
    ///
    /// # Safety
    ///
    /// `ptr` points to the `lb_env` of a balance in progress on this CPU,
    /// valid for `'a`, with a `dst_cpu` below `nr_cpu_ids`, and the caller
    /// is inside the RCU read-side critical section of that balance for all
    /// of `'a`.
    #[inline]
    pub unsafe fn from_raw<'a>(ptr: *mut bindings::lb_env) -> &'a Self {
        // SAFETY: transparent wrapper; validity is the caller's promise.
        // INVARIANT: the caller promises the env of a balance in progress on
        // this CPU, inside that balance's RCU read-side section for `'a`.
        unsafe { &*ptr.cast::<Self>() }
    }

    #[inline]
    fn as_raw(&self) -> *mut bindings::lb_env {
        self.0.get()
    }

    /// The domain being balanced.
    #[inline]
    pub fn sd(&self) -> &SchedDomain {
        // SAFETY: `env->sd` is set (non-null) for the whole balance and RCU
        // keeps the domain alive (type invariant); `SchedDomain` is
        // transparent over the C struct.
        unsafe { &*(*self.as_raw()).sd.cast::<SchedDomain>() }
    }

    /// The CPU that pulls (`env->dst_cpu`).
    #[inline]
    pub fn dst_cpu(&self) -> CpuId {
        // SAFETY: the env is valid and owned by this CPU; `dst_cpu` is
        // below `nr_cpu_ids` (type invariant).
        unsafe { CpuId::from_u32_unchecked((*self.as_raw()).dst_cpu as u32) }
    }

    /// How idle the destination CPU is.
    #[inline]
    pub fn idle(&self) -> IdleType {
        // SAFETY: as for `dst_cpu()`.
        match unsafe { (*self.as_raw()).idle } {
            bindings::cpu_idle_type___CPU_NOT_IDLE => IdleType::NotIdle,
            bindings::cpu_idle_type_CPU_IDLE => IdleType::Idle,
            _ => IdleType::NewlyIdle,
        }
    }

    /// Sets what to migrate and how much (`env->migration_type`,
    /// `env->imbalance`).  The arithmetic keeps the amount within
    /// [`IMBALANCE_MAX`]; an `imb` built elsewhere (a policy module's, whose
    /// answers are range-checked before they get here) is held to `long`
    /// by the same bound, so C never sees a negative imbalance.
    #[inline]
    pub fn set_imbalance(&self, imb: Imbalance) {
        // The discriminants of `MigrationType` are the C enum's (checked
        // where the helpers' crate is built).
        let migration_type = imb.migration_type as u32 as _;
        let imbalance = imb.imbalance.min(IMBALANCE_MAX) as _;
        // SAFETY: the env is owned by this CPU; nothing else writes it.
        unsafe {
            (*self.as_raw()).migration_type = migration_type;
            (*self.as_raw()).imbalance = imbalance;
        }
    }

    /// `get_llc_shared()`: the LLC-shared state of the destination CPU when
    /// the domain being balanced is its LLC domain, else `None`.
    #[inline]
    pub fn llc_shared(&self) -> Option<&SchedDomainShared> {
        let cpu = self.dst_cpu();
        if llc_size(cpu) != self.sd().span_weight() {
            return None;
        }
        // SAFETY: `sd_llc_shared` is a per-CPU pointer and `cpu` a CPU below
        // `nr_cpu_ids`, read once as `rcu_dereference()` reads it; the
        // balance holds the RCU read lock for as long as `self` (type
        // invariant), which bounds the returned lifetime.
        unsafe {
            SchedDomainShared::from_raw(
                per_cpu_ptr(
                    core::ptr::addr_of!(bindings::sd_llc_shared),
                    cpu.as_u32() as usize,
                )
                .read_volatile(),
            )
        }
    }
}

/// Statistics of one group for a balance (`struct sg_lb_stats`).
///
/// # Invariants
///
/// Part of an `sd_lb_stats` owned by the balance in progress on this CPU.
#[repr(transparent)]
pub struct SgLbStats(Opaque<bindings::sg_lb_stats>);

impl SgLbStats {
    #[inline]
    fn as_raw(&self) -> *mut bindings::sg_lb_stats {
        self.0.get()
    }

    /// The group's kind.
    #[inline]
    pub fn group_type(&self) -> GroupType {
        // SAFETY: valid and owned by this CPU (type invariant).
        GroupType::from_raw(unsafe { (*self.as_raw()).group_type })
    }

    /// Capacity of the group's CPUs.
    #[inline]
    pub fn group_capacity(&self) -> u64 {
        // SAFETY: as for `group_type()`.
        unsafe { (*self.as_raw()).group_capacity as u64 }
    }

    /// Utilization of the group's CPUs.
    #[inline]
    pub fn group_util(&self) -> u64 {
        // SAFETY: as for `group_type()`.
        unsafe { (*self.as_raw()).group_util as u64 }
    }

    /// Tasks running in the group.
    #[inline]
    pub fn sum_nr_running(&self) -> u32 {
        // SAFETY: as for `group_type()`.
        unsafe { (*self.as_raw()).sum_nr_running }
    }

    /// Idle CPUs in the group.
    #[inline]
    pub fn idle_cpus(&self) -> u32 {
        // SAFETY: as for `group_type()`.
        unsafe { (*self.as_raw()).idle_cpus }
    }

    /// CPUs in the group.
    #[inline]
    pub fn group_weight(&self) -> u32 {
        // SAFETY: as for `group_type()`.
        unsafe { (*self.as_raw()).group_weight }
    }
}

/// Statistics of the domain for a balance (`struct sd_lb_stats`).
///
/// # Invariants
///
/// Owned by the balance in progress on this CPU, valid for the lifetime of
/// the reference, inside the balance's RCU read-side critical section.
#[repr(transparent)]
pub struct SdLbStats(Opaque<bindings::sd_lb_stats>);

impl SdLbStats {
    /// Creates a reference from the C pointer.
    ///
    /// # Safety
    ///
    /// As for [`LbEnv::from_raw`], for the balance's `sd_lb_stats`.
    #[inline]
    pub unsafe fn from_raw<'a>(ptr: *mut bindings::sd_lb_stats) -> &'a Self {
        // SAFETY: transparent wrapper; validity is the caller's promise.
        // INVARIANT: as for `LbEnv::from_raw`, that balance's statistics.
        unsafe { &*ptr.cast::<Self>() }
    }

    #[inline]
    fn as_raw(&self) -> *mut bindings::sd_lb_stats {
        self.0.get()
    }

    /// Statistics of the local group.
    #[inline]
    pub fn local_stat(&self) -> &SgLbStats {
        // SAFETY: the field is part of `*self`, which is valid.
        unsafe { &*core::ptr::addr_of_mut!((*self.as_raw()).local_stat).cast::<SgLbStats>() }
    }

    /// Statistics of the busiest group.
    #[inline]
    pub fn busiest_stat(&self) -> &SgLbStats {
        // SAFETY: as for `local_stat()`.
        unsafe { &*core::ptr::addr_of_mut!((*self.as_raw()).busiest_stat).cast::<SgLbStats>() }
    }

    /// The local group, once the scan found it.
    #[inline]
    pub fn local(&self) -> Option<&SchedGroup> {
        // SAFETY: groups live as long as the domain being balanced.
        unsafe { SchedGroup::from_raw((*self.as_raw()).local) }
    }

    /// The busiest group, if the scan picked one.
    #[inline]
    pub fn busiest(&self) -> Option<&SchedGroup> {
        // SAFETY: as for `local()`.
        unsafe { SchedGroup::from_raw((*self.as_raw()).busiest) }
    }

    /// Whether tasks should go to a sibling domain first.
    #[inline]
    pub fn prefer_sibling(&self) -> bool {
        // SAFETY: owned by this CPU's balance.
        unsafe { (*self.as_raw()).prefer_sibling != 0 }
    }

    /// Total load and capacity over the scanned groups.
    #[inline]
    pub fn totals(&self) -> (u64, u64) {
        // SAFETY: as for `prefer_sibling()`.
        unsafe {
            (
                (*self.as_raw()).total_load as u64,
                (*self.as_raw()).total_capacity as u64,
            )
        }
    }

    /// Replaces the totals (a truncated scan borrows a snapshot).
    #[inline]
    pub fn set_totals(&self, load: u64, capacity: u64) {
        // SAFETY: as for `prefer_sibling()`; nothing else writes it.
        unsafe {
            (*self.as_raw()).total_load = load as _;
            (*self.as_raw()).total_capacity = capacity as _;
        }
    }
}

/// The statistics of a balance past the pick of its busiest group
/// (`calculate_imbalance()`): both groups are known.
///
/// # Invariants
///
/// As for [`SdLbStats`], and its `local` and `busiest` groups are set.
#[repr(transparent)]
pub struct SdLbStatsPicked(SdLbStats);

impl SdLbStatsPicked {
    /// Creates a reference from the C pointer.
    ///
    /// # Safety
    ///
    /// As for [`SdLbStats::from_raw`], and `ptr->local` and `ptr->busiest`
    /// are not null, as from `calculate_imbalance()` on.
    #[inline]
    pub unsafe fn from_raw<'a>(ptr: *mut bindings::sd_lb_stats) -> &'a Self {
        // SAFETY: transparent wrapper; validity is the caller's promise.
        // INVARIANT: the caller's promise, both groups set.
        unsafe { &*ptr.cast::<Self>() }
    }

    /// The local group and the busiest one.
    #[inline]
    pub fn groups(&self) -> (&SchedGroup, &SchedGroup) {
        // SAFETY: both pointers are set (type invariant) and the groups live
        // as long as the domain being balanced.
        unsafe {
            (
                SchedGroup::from_raw((*self.0.as_raw()).local).unwrap_unchecked(),
                SchedGroup::from_raw((*self.0.as_raw()).busiest).unwrap_unchecked(),
            )
        }
    }
}

impl core::ops::Deref for SdLbStatsPicked {
    type Target = SdLbStats;

    #[inline]
    fn deref(&self) -> &SdLbStats {
        &self.0
    }
}
