// SPDX-License-Identifier: GPL-2.0

//! Scheduling domains, their groups, and the state an LLC shares.
//!
//! C header: [`include/linux/sched/topology.h`](srctree/include/linux/sched/topology.h).

use super::{read_field, read_fixed_field};
use crate::cpu::CpuId;
use crate::sync::rcu::Guard;
use crate::{bindings, percpu::per_cpu_ptr, types::Opaque};
use core::ptr;

/// `SD_*` flags of a scheduling domain.
pub mod flags {
    use crate::bindings;

    /// The domain's CPUs share the last-level cache (`SD_SHARE_LLC`).
    pub const SHARE_LLC: u32 = bindings::SD_SHARE_LLC;
    /// Balancing this domain is serialized system-wide (`SD_SERIALIZE`).
    pub const SERIALIZE: u32 = bindings::SD_SERIALIZE;
    /// The domain's CPUs are SMT siblings (`SD_SHARE_CPUCAPACITY`).
    pub const SHARE_CPUCAPACITY: u32 = bindings::SD_SHARE_CPUCAPACITY;
    /// The domain spans NUMA nodes (`SD_NUMA`).
    pub const NUMA: u32 = bindings::SD_NUMA;
    /// Groups of the domain may overlap (`SD_OVERLAP`).
    pub const OVERLAP: u32 = bindings::SD_OVERLAP;
}

/// A scheduling domain (`struct sched_domain`).
///
/// # Invariants
///
/// A `&SchedDomain` points to a domain attached to a runqueue (or one that
/// was, and is waiting for an RCU grace period to be freed); it is only
/// handed out with a lifetime bounded by an RCU read-side critical section.
#[repr(transparent)]
pub struct SchedDomain(Opaque<bindings::sched_domain>);

impl SchedDomain {
    /// Creates a reference from a raw pointer, `None` for null.
    ///
    /// # Safety
    ///
    /// `ptr` is null, or points to a valid `struct sched_domain` that stays
    /// valid for `'a`, i.e. `'a` lies within an RCU read-side critical
    /// section in which `ptr` was obtained.
    #[inline]
    pub unsafe fn from_raw<'a>(ptr: *const bindings::sched_domain) -> Option<&'a Self> {
        // SAFETY: `SchedDomain` is `repr(transparent)` over the C struct; the
        // caller guarantees validity for `'a`.
        // INVARIANT: the caller promises an attached (or RCU-deferred) domain
        // valid within the read-side critical section that bounds `'a`.
        unsafe { ptr.cast::<Self>().as_ref() }
    }

    /// Returns the raw pointer, for the C helpers.
    #[inline]
    pub fn as_raw(&self) -> *mut bindings::sched_domain {
        self.0.get()
    }

    /// The lowest domain of `cpu` (`cpu_rq(cpu)->sd`), `None` when the CPU has
    /// no domains (e.g. it is offline, alone, or `cpu` is not possible).
    ///
    /// # Examples
    ///
    /// Walk the hierarchy of CPU 0 upwards: each level spans more CPUs than
    /// the one below it, and the ring of groups built for it has exactly
    /// `nr_groups()` groups that together cover the domain.
    ///
    /// ```
    /// use kernel::{sched::topology::SchedDomain, sync::rcu};
    ///
    /// let guard = rcu::read_lock();
    /// let cpu0 = kernel::cpu::CpuId::from_u32(0).expect("CPU 0 exists");
    /// let mut level = SchedDomain::of_cpu(&guard, cpu0);
    /// let mut below = 1;
    /// while let Some(sd) = level {
    ///     assert!(sd.span_weight() > below);
    ///     let (mut groups, mut cpus) = (0, 0);
    ///     for sg in sd.groups() {
    ///         groups += 1;
    ///         cpus += sg.weight();
    ///     }
    ///     assert_eq!(groups, sd.nr_groups());
    ///     assert!(groups >= 1 && groups <= sd.span_weight());
    ///     if sd.flags() & kernel::sched::topology::flags::OVERLAP == 0 {
    ///         assert_eq!(cpus, sd.span_weight());
    ///     }
    ///     below = sd.span_weight();
    ///     level = sd.parent();
    /// }
    /// ```
    #[inline]
    pub fn of_cpu(_guard: &Guard, cpu: CpuId) -> Option<&Self> {
        // SAFETY: `cpu_rq(cpu)->sd`, read once as `rcu_dereference()` reads
        // it: `runqueues` is a per-CPU variable, `cpu` a CPU below
        // `nr_cpu_ids` (type invariant), and its `sd` a domain pointer at
        // the generated offset, null or a domain that RCU keeps alive while
        // `_guard` holds the read lock.
        unsafe {
            let rq = per_cpu_ptr(ptr::addr_of!(bindings::runqueues), cpu.as_u32() as usize);
            Self::from_raw(read_field::<*const bindings::sched_domain, _>(
                rq,
                bindings::RUST_LB_RQ_SD,
            ))
        }
    }

    /// The parent domain (the next level up), `None` at the top.
    #[inline]
    pub fn parent(&self) -> Option<&Self> {
        // SAFETY: `self` is valid (type invariant); a domain's parent is freed
        // together with it, after the same grace period.
        unsafe {
            Self::from_raw(ptr::read_volatile(ptr::addr_of!((*self.as_raw()).parent)).cast_const())
        }
    }

    /// Number of CPUs the domain spans.
    #[inline]
    pub fn span_weight(&self) -> u32 {
        // SAFETY: `self` is valid; the field is set before the domain is
        // attached and never changes afterwards.
        unsafe { (*self.as_raw()).span_weight }
    }

    /// Number of groups in the domain's ring of groups.
    #[inline]
    pub fn nr_groups(&self) -> u32 {
        // SAFETY: as for `span_weight()`.
        unsafe { (*self.as_raw()).nr_groups }
    }

    /// The domain's `SD_*` flags (see [`flags`]).
    #[inline]
    pub fn flags(&self) -> u32 {
        // SAFETY: `self` is valid; the flags are fixed once attached.
        unsafe { (*self.as_raw()).flags as u32 }
    }

    /// Imbalance percentage above which the domain is balanced.
    #[inline]
    pub fn imbalance_pct(&self) -> u32 {
        // SAFETY: as for `flags()`.
        unsafe { (*self.as_raw()).imbalance_pct }
    }

    /// Iterates over the domain's groups, starting with the local one.
    #[inline]
    pub fn groups(&self) -> Groups<'_> {
        // SAFETY: `self` is valid and its group ring is never empty.
        let first = unsafe { (*self.as_raw()).groups };
        Groups {
            first,
            next: first,
            _sd: self,
        }
    }

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

/// A group of a scheduling domain (`struct sched_group`).
///
/// # Invariants
///
/// Points to a group of a domain that is valid for the lifetime of the
/// reference; groups are freed with their domain.
#[repr(transparent)]
pub struct SchedGroup(Opaque<bindings::sched_group>);

impl SchedGroup {
    /// Creates a reference from a raw pointer, `None` for null.
    ///
    /// # Safety
    ///
    /// `ptr` is null or points to a group of a domain that stays valid for
    /// `'a` (see [`SchedDomain::from_raw`]).
    #[inline]
    pub unsafe fn from_raw<'a>(ptr: *const bindings::sched_group) -> Option<&'a Self> {
        // SAFETY: `SchedGroup` is `repr(transparent)` over the C struct; the
        // caller guarantees validity for `'a`.
        // INVARIANT: groups are freed with their domain, which outlives `'a`.
        unsafe { ptr.cast::<Self>().as_ref() }
    }

    /// Returns the raw pointer, for the C helpers.
    #[inline]
    pub fn as_raw(&self) -> *mut bindings::sched_group {
        self.0.get()
    }

    /// Number of CPUs in the group.
    #[inline]
    pub fn weight(&self) -> u32 {
        // SAFETY: `self` is valid (type invariant); `group_weight` is a
        // `u32` at the generated offset, fixed once the domain is attached.
        unsafe { read_fixed_field(self.0.get(), bindings::RUST_LB_SG_GROUP_WEIGHT) }
    }

    /// Number of cores in the group.
    #[inline]
    pub fn cores(&self) -> u32 {
        // SAFETY: `self` is valid (type invariant); `cores` is a `u32` at
        // the generated offset, fixed once the group's domain is attached.
        unsafe { read_fixed_field(self.0.get(), bindings::RUST_LB_SG_CORES) }
    }
}

/// Iterator over the groups of a [`SchedDomain`], see [`SchedDomain::groups`].
pub struct Groups<'a> {
    first: *mut bindings::sched_group,
    next: *mut bindings::sched_group,
    _sd: &'a SchedDomain,
}

impl<'a> Iterator for Groups<'a> {
    type Item = &'a SchedGroup;

    #[inline]
    fn next(&mut self) -> Option<&'a SchedGroup> {
        if self.next.is_null() {
            return None;
        }
        let sg = self.next;
        // SAFETY: `sg` is a group of the domain borrowed for `'a`; the ring
        // is immutable once the domain is attached.
        let after: *mut bindings::sched_group =
            unsafe { read_fixed_field(sg, bindings::RUST_LB_SG_NEXT) };
        self.next = if after == self.first {
            ptr::null_mut()
        } else {
            after
        };
        // SAFETY: `sg` is a group of the domain borrowed for `'a`.
        unsafe { SchedGroup::from_raw(sg) }
    }
}

/// State shared by the CPUs of a last-level cache (`struct sched_domain_shared`).
///
/// Its fields are written by any CPU of the LLC without a lock, so they are
/// read and written with `READ_ONCE()`/`WRITE_ONCE()` semantics.
///
/// # Invariants
///
/// Points to a live `sched_domain_shared` for the lifetime of the reference,
/// which is bounded by an RCU read-side critical section.
#[repr(transparent)]
pub struct SchedDomainShared(Opaque<bindings::sched_domain_shared>);

impl SchedDomainShared {
    /// Creates a reference from a raw pointer, `None` for null.
    ///
    /// # Safety
    ///
    /// `ptr` is null or valid for `'a` (see [`SchedDomain::from_raw`]).
    #[inline]
    pub unsafe fn from_raw<'a>(ptr: *const bindings::sched_domain_shared) -> Option<&'a Self> {
        // SAFETY: transparent wrapper; the caller guarantees validity.
        // INVARIANT: as for `SchedDomain::from_raw`, the state of an LLC that
        // RCU keeps alive for `'a`.
        unsafe { ptr.cast::<Self>().as_ref() }
    }

    /// Returns the raw pointer, for the C helpers.
    #[inline]
    pub fn as_raw(&self) -> *mut bindings::sched_domain_shared {
        self.0.get()
    }

    /// SIS_UTIL's idle-CPU scan depth for wakeups (`nr_idle_scan`).
    #[inline]
    pub fn nr_idle_scan(&self) -> i32 {
        // SAFETY: `self` is valid; concurrent writers use `WRITE_ONCE()`.
        unsafe { ptr::read_volatile(ptr::addr_of!((*self.as_raw()).nr_idle_scan)) }
    }

    /// Sets `nr_idle_scan` (`WRITE_ONCE()`), skipping the store when the
    /// value is unchanged so the cache line is not dirtied needlessly.
    #[inline]
    pub fn set_nr_idle_scan(&self, v: i32) {
        if self.nr_idle_scan() != v {
            // SAFETY: `self` is valid; readers use `READ_ONCE()`.
            unsafe { ptr::write_volatile(ptr::addr_of_mut!((*self.as_raw()).nr_idle_scan), v) }
        }
    }

    /// ILB_UTIL's newidle scan depth, in groups (`ilb_nr_scan`).
    #[inline]
    pub fn ilb_nr_scan(&self) -> i32 {
        // SAFETY: as for `nr_idle_scan()`.
        unsafe { ptr::read_volatile(ptr::addr_of!((*self.as_raw()).ilb_nr_scan)) }
    }

    /// The load and capacity totals of the last periodic balance.
    #[inline]
    pub fn ilb_snapshot(&self) -> (u64, u64) {
        // SAFETY: as for `nr_idle_scan()`.  The two loads are not atomic as a
        // pair; a reader may see one update's load with another's capacity,
        // which only ever mixes two recent snapshots of the same domain.
        unsafe {
            (
                ptr::read_volatile(ptr::addr_of!((*self.as_raw()).ilb_total_load)) as u64,
                ptr::read_volatile(ptr::addr_of!((*self.as_raw()).ilb_total_capacity)) as u64,
            )
        }
    }

    /// Publishes ILB_UTIL's scan depth and snapshot (`WRITE_ONCE()` each,
    /// skipping unchanged values).
    #[inline]
    pub fn set_ilb(&self, nr_scan: i32, total_load: u64, total_capacity: u64) {
        let raw = self.as_raw();
        let (load, cap) = self.ilb_snapshot();
        // SAFETY: `self` is valid; readers use `READ_ONCE()`.
        unsafe {
            if self.ilb_nr_scan() != nr_scan {
                ptr::write_volatile(ptr::addr_of_mut!((*raw).ilb_nr_scan), nr_scan);
            }
            if load != total_load {
                ptr::write_volatile(ptr::addr_of_mut!((*raw).ilb_total_load), total_load as _);
            }
            if cap != total_capacity {
                ptr::write_volatile(
                    ptr::addr_of_mut!((*raw).ilb_total_capacity),
                    total_capacity as _,
                );
            }
        }
    }
}

/// Number of CPUs in the last-level cache of `cpu` (per-CPU `sd_llc_size`).
///
/// # Examples
///
/// ```
/// use kernel::{cpu::CpuId, sched::topology::llc_size};
///
/// let cpu0 = CpuId::from_u32(0).expect("CPU 0 exists");
/// // CPU 0 is in an LLC of at least itself.
/// assert!(llc_size(cpu0) >= 1);
/// ```
#[inline]
pub fn llc_size(cpu: CpuId) -> u32 {
    // SAFETY: `sd_llc_size` is a per-CPU `int` and `cpu` a CPU below
    // `nr_cpu_ids` (type invariant).
    let size =
        unsafe { per_cpu_ptr(ptr::addr_of!(bindings::sd_llc_size), cpu.as_u32() as usize).read() };
    // Never negative; as C compares it with an unsigned span weight.
    size as u32
}
