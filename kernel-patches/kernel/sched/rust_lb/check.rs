// SPDX-License-Identifier: GPL-2.0

//! Consistency check of the domain hierarchy, in safe Rust.
//!
//! The same invariants as the doctest of `SchedDomain::of_cpu`, but for
//! every CPU and on demand, so they can be checked after the domains were
//! rebuilt (CPU hotplug, cpuset partitions): spans grow level by level, and
//! each domain's ring of groups has exactly `nr_groups` groups, covering the
//! span when the groups do not overlap.

#![forbid(unsafe_code)]

use kernel::{
    cpu::CpuId,
    sched::topology::{flags, SchedDomain},
    sync::rcu,
};

/// What [`check_topology`] found.
pub(crate) struct TopologyCheck {
    /// Domains visited, over all CPUs.
    pub(crate) domains: u32,
    /// Domains that broke one of the invariants.
    pub(crate) mismatches: u32,
}

/// Walks every CPU's domains (offline CPUs have none).
pub(crate) fn check_topology() -> TopologyCheck {
    let guard = rcu::read_lock();
    let mut result = TopologyCheck {
        domains: 0,
        mismatches: 0,
    };
    for cpu in CpuId::all() {
        let mut level = SchedDomain::of_cpu(&guard, cpu);
        let mut below = 1;
        while let Some(sd) = level {
            result.domains += 1;
            let (mut groups, mut cpus) = (0u32, 0u32);
            for sg in sd.groups() {
                groups += 1;
                cpus += sg.weight();
            }
            let covers = sd.flags() & flags::OVERLAP != 0 || cpus == sd.span_weight();
            if groups != sd.nr_groups() || sd.span_weight() <= below || !covers {
                result.mismatches += 1;
            }
            below = sd.span_weight();
            level = sd.parent();
        }
    }
    result
}
