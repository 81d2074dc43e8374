// SPDX-License-Identifier: GPL-2.0

//! The state of one load-balancing pass of the fair class.
//!
//! C headers: [`kernel/sched/fair_lb.h`](srctree/kernel/sched/fair_lb.h),
//! [`kernel/sched/rust_lb.h`](srctree/kernel/sched/rust_lb.h).

use super::read_fixed_field;
use super::topology::{llc_size, CpuId, SchedDomain, SchedDomainShared, SchedGroup};
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

/// What `env->imbalance` counts (`enum migration_type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Migration {
    /// `migrate_load`.
    Load,
    /// `migrate_util`.
    Util,
    /// `migrate_task`.
    Task,
    /// `migrate_misfit`.
    Misfit,
}

impl Migration {
    fn to_raw(self) -> bindings::migration_type {
        match self {
            Self::Load => bindings::migration_type_migrate_load,
            Self::Util => bindings::migration_type_migrate_util,
            Self::Task => bindings::migration_type_migrate_task,
            Self::Misfit => bindings::migration_type_migrate_misfit,
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
        unsafe { CpuId::new_unchecked((*self.as_raw()).dst_cpu as u32) }
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
    /// `env->imbalance`); the amount is clamped to `LONG_MAX`.
    #[inline]
    pub fn set_imbalance(&self, migration: Migration, imbalance: u64) {
        let imbalance = imbalance.min(i64::MAX as u64) as _;
        // SAFETY: the env is owned by this CPU; nothing else writes it.
        unsafe {
            (*self.as_raw()).migration_type = migration.to_raw();
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
                per_cpu_ptr(core::ptr::addr_of!(bindings::sd_llc_shared), cpu.as_usize())
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
        unsafe { (*self.as_raw()).local.cast::<SchedGroup>().as_ref() }
    }

    /// The busiest group, if the scan picked one.
    #[inline]
    pub fn busiest(&self) -> Option<&SchedGroup> {
        // SAFETY: as for `local()`.
        unsafe { (*self.as_raw()).busiest.cast::<SchedGroup>().as_ref() }
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

impl SchedGroup {
    /// Number of cores in the group.
    #[inline]
    pub fn cores(&self) -> u32 {
        // SAFETY: `self` is a valid group (type invariant of `SchedGroup`);
        // `cores` is a `u32` at the generated offset, fixed once the
        // group's domain is attached.
        unsafe { read_fixed_field(self.as_raw(), bindings::RUST_LB_SG_CORES) }
    }
}

impl SchedDomain {
    /// Highest cost of a newidle balance of this domain seen lately, in ns.
    #[inline]
    pub fn max_newidle_lb_cost(&self) -> u64 {
        // SAFETY: `self` is valid.  The field is written without a lock by
        // this CPU and by a nohz idle balance on its behalf
        // (`update_newidle_cost()`): read it once, as `READ_ONCE()`.
        unsafe {
            core::ptr::read_volatile(core::ptr::addr_of!((*self.as_raw()).max_newidle_lb_cost))
        }
    }

    /// `SD_NUMA` domains tolerate this many tasks of imbalance.
    #[inline]
    pub fn imb_numa_nr(&self) -> u32 {
        // SAFETY: fixed once the domain is attached.
        unsafe { (*self.as_raw()).imb_numa_nr }
    }
}
