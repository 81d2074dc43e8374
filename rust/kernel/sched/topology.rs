// SPDX-License-Identifier: GPL-2.0

//! Scheduling domains, their groups, and the state an LLC shares.
//!
//! C header: [`include/linux/sched/topology.h`](srctree/include/linux/sched/topology.h).

use super::rcu::Guard;
use crate::{bindings, types::Opaque};
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
    /// use kernel::sched::{rcu, topology::SchedDomain};
    ///
    /// let guard = rcu::Guard::new();
    /// let mut level = SchedDomain::of_cpu(&guard, 0);
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
    pub fn of_cpu(_guard: &Guard, cpu: u32) -> Option<&Self> {
        let cpu = i32::try_from(cpu).ok()?;
        // SAFETY: the accessor checks `cpu` and returns null or a domain that
        // RCU keeps alive while `_guard` holds the read lock.
        unsafe { Self::from_raw(bindings::sched_rust_lb_cpu_domain(cpu)) }
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

    /// The child domain (the next level down), `None` at the bottom.
    #[inline]
    pub fn child(&self) -> Option<&Self> {
        // SAFETY: as for `parent()`.
        unsafe {
            Self::from_raw(ptr::read_volatile(ptr::addr_of!((*self.as_raw()).child)).cast_const())
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

    /// Level of the domain in the hierarchy, 0 at the bottom.
    #[inline]
    pub fn level(&self) -> u32 {
        // SAFETY: as for `flags()`.
        unsafe { (*self.as_raw()).level as u32 }
    }

    /// Imbalance percentage above which the domain is balanced.
    #[inline]
    pub fn imbalance_pct(&self) -> u32 {
        // SAFETY: as for `flags()`.
        unsafe { (*self.as_raw()).imbalance_pct }
    }

    /// The state shared by the CPUs of this domain, set for the LLC domain
    /// (and the domains whose span the LLC shares), `None` elsewhere.
    #[inline]
    pub fn shared(&self) -> Option<&SchedDomainShared> {
        // SAFETY: `self` is valid; `shared` is reference counted by the
        // domains that point to it and freed with the last of them, after a
        // grace period.
        unsafe {
            SchedDomainShared::from_raw(
                ptr::read_volatile(ptr::addr_of!((*self.as_raw()).shared)).cast_const(),
            )
        }
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
    /// Returns the raw pointer, for the C helpers.
    #[inline]
    pub fn as_raw(&self) -> *mut bindings::sched_group {
        self.0.get()
    }

    /// Number of CPUs in the group.
    #[inline]
    pub fn weight(&self) -> u32 {
        // SAFETY: `self` is valid (type invariant).
        unsafe { bindings::sched_rust_lb_group_weight(self.0.get()) }
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
        let after = unsafe { bindings::sched_rust_lb_group_next(sg) };
        self.next = if after == self.first {
            ptr::null_mut()
        } else {
            after
        };
        // SAFETY: `SchedGroup` is transparent over the C struct and `sg`
        // lives as long as the domain.
        Some(unsafe { &*sg.cast::<SchedGroup>() })
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
        unsafe { ptr.cast::<Self>().as_ref() }
    }

    /// The LLC-shared state of `cpu` (the per-CPU `sd_llc_shared`), `None` if
    /// the CPU has no LLC domain.
    ///
    /// # Examples
    ///
    /// Every CPU of an LLC sees the same shared state, and the number of busy
    /// CPUs it counts never exceeds the LLC's size.
    ///
    /// ```
    /// use kernel::sched::{rcu, topology::{llc_size, SchedDomainShared}};
    ///
    /// let guard = rcu::Guard::new();
    /// if let Some(sds) = SchedDomainShared::of_cpu(&guard, 0) {
    ///     assert!(sds.nr_busy_cpus() <= llc_size(0));
    ///     assert!(sds.nr_idle_scan() >= 0);
    /// }
    /// ```
    #[inline]
    pub fn of_cpu(_guard: &Guard, cpu: u32) -> Option<&Self> {
        let cpu = i32::try_from(cpu).ok()?;
        // SAFETY: the accessor checks `cpu` and does the `rcu_dereference()`;
        // `_guard` holds the read lock for the returned lifetime.
        unsafe { Self::from_raw(bindings::sched_rust_lb_llc_shared(cpu)) }
    }

    /// Returns the raw pointer, for the C helpers.
    #[inline]
    pub fn as_raw(&self) -> *mut bindings::sched_domain_shared {
        self.0.get()
    }

    #[inline]
    fn raw(&self) -> *mut bindings::sched_domain_shared {
        self.as_raw()
    }

    /// Number of busy CPUs in the LLC (`nr_busy_cpus`).
    #[inline]
    pub fn nr_busy_cpus(&self) -> u32 {
        // SAFETY: `self` is valid; `atomic_read()` is a `READ_ONCE()` of the
        // counter.
        let n = unsafe { ptr::read_volatile(ptr::addr_of!((*self.raw()).nr_busy_cpus.counter)) };
        n.max(0) as u32
    }

    /// SIS_UTIL's idle-CPU scan depth for wakeups (`nr_idle_scan`).
    #[inline]
    pub fn nr_idle_scan(&self) -> i32 {
        // SAFETY: `self` is valid; concurrent writers use `WRITE_ONCE()`.
        unsafe { ptr::read_volatile(ptr::addr_of!((*self.raw()).nr_idle_scan)) }
    }

    /// Sets `nr_idle_scan` (`WRITE_ONCE()`), skipping the store when the
    /// value is unchanged so the cache line is not dirtied needlessly.
    #[inline]
    pub fn set_nr_idle_scan(&self, v: i32) {
        if self.nr_idle_scan() != v {
            // SAFETY: `self` is valid; readers use `READ_ONCE()`.
            unsafe { ptr::write_volatile(ptr::addr_of_mut!((*self.raw()).nr_idle_scan), v) }
        }
    }

    /// ILB_UTIL's newidle scan depth, in groups (`ilb_nr_scan`).
    #[inline]
    pub fn ilb_nr_scan(&self) -> i32 {
        // SAFETY: as for `nr_idle_scan()`.
        unsafe { ptr::read_volatile(ptr::addr_of!((*self.raw()).ilb_nr_scan)) }
    }

    /// The load and capacity totals of the last periodic balance.
    #[inline]
    pub fn ilb_snapshot(&self) -> (u64, u64) {
        // SAFETY: as for `nr_idle_scan()`.  The two loads are not atomic as a
        // pair; a reader may see one update's load with another's capacity,
        // which only ever mixes two recent snapshots of the same domain.
        unsafe {
            (
                ptr::read_volatile(ptr::addr_of!((*self.raw()).ilb_total_load)) as u64,
                ptr::read_volatile(ptr::addr_of!((*self.raw()).ilb_total_capacity)) as u64,
            )
        }
    }

    /// Publishes ILB_UTIL's scan depth and snapshot (`WRITE_ONCE()` each,
    /// skipping unchanged values).
    #[inline]
    pub fn set_ilb(&self, nr_scan: i32, total_load: u64, total_capacity: u64) {
        let raw = self.raw();
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

/// Number of possible CPU ids (`nr_cpu_ids`): CPUs are numbered below it.
///
/// # Examples
///
/// ```
/// use kernel::sched::topology::{llc_id, nr_cpu_ids};
///
/// assert!(nr_cpu_ids() >= 1);
/// assert!(llc_id(nr_cpu_ids()).is_none());
/// ```
#[inline]
pub fn nr_cpu_ids() -> u32 {
    // SAFETY: `nr_cpu_ids` is set during early boot and only read after.
    unsafe { bindings::nr_cpu_ids }
}

/// Number of CPUs in the last-level cache of `cpu` (per-CPU `sd_llc_size`).
#[inline]
pub fn llc_size(cpu: u32) -> u32 {
    let Ok(cpu) = i32::try_from(cpu) else {
        return 0;
    };
    // SAFETY: the accessor validates `cpu`; the value is a plain integer.
    unsafe { bindings::sched_rust_lb_llc_size(cpu).max(0) as u32 }
}

/// Identifier of the last-level cache of `cpu` (per-CPU `sd_llc_id`), or
/// `None` for an invalid CPU.
///
/// # Examples
///
/// ```
/// use kernel::sched::topology::llc_id;
///
/// assert!(llc_id(0).is_some());
/// assert!(llc_id(u32::MAX).is_none());
/// ```
#[inline]
pub fn llc_id(cpu: u32) -> Option<u32> {
    let cpu = i32::try_from(cpu).ok()?;
    // SAFETY: the accessor validates `cpu` and returns -1 when invalid.
    let id = unsafe { bindings::sched_rust_lb_llc_id(cpu) };
    u32::try_from(id).ok()
}
