// SPDX-License-Identifier: GPL-2.0

//! Scheduler topology and load-balancing state.
//!
//! Safe views of the structures the fair class balances with: the scheduling
//! domains of a CPU, the state its last-level cache shares, and the RCU read
//! side that keeps them alive.  References handed out here borrow from a
//! [`crate::sync::rcu::Guard`], so they cannot outlive the read-side
//! critical section that protects them.
//!
//! C headers: [`include/linux/sched/topology.h`](srctree/include/linux/sched/topology.h),
//! [`kernel/sched/rust_lb.h`](srctree/kernel/sched/rust_lb.h).

pub mod lb;
pub mod rq;
pub mod topology;
