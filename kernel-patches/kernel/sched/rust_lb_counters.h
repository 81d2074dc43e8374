/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event counters of the Rust load-balancing helpers, one line each:
 * RUST_LB_COUNTER(name) is counted as rust_lb_<name> (C: rust_lb_count(),
 * Rust: count!(name)) and shown as "<name> <value>" in
 * /sys/kernel/debug/sched/rust_lb.  Documentation/counters.rst of the
 * overlay says what each counts.  No include guard: rust_lb.h and the
 * debugfs file expand the list with their own RUST_LB_COUNTER().
 */

/* Calls into Rust, per helper. */
RUST_LB_COUNTER(rust_calls_llc_shared)
RUST_LB_COUNTER(rust_calls_update_idle_cpu_scan)
RUST_LB_COUNTER(rust_calls_ilb_budget)
RUST_LB_COUNTER(rust_calls_ilb_done)
RUST_LB_COUNTER(rust_calls_newidle_skip)
RUST_LB_COUNTER(rust_calls_ttwu_queue_cond)
RUST_LB_COUNTER(rust_calls_spare_imbalance)
RUST_LB_COUNTER(rust_calls_serialize_try)

/* ILB_UTIL */
RUST_LB_COUNTER(newidle_scans)
RUST_LB_COUNTER(newidle_scans_truncated)
RUST_LB_COUNTER(newidle_groups_scanned)
RUST_LB_COUNTER(newidle_groups_skipped)
RUST_LB_COUNTER(ilb_snapshots_published)

/* RD_OVERLOAD */
RUST_LB_COUNTER(newidle_skipped_not_overloaded)

/* TTWU_QUEUE_IDLE */
RUST_LB_COUNTER(wakelist_idle_queued)
RUST_LB_COUNTER(ttwu_llc_remote)
RUST_LB_COUNTER(ttwu_llc_on_wakee)

/* LB_LLC_SPREAD */
RUST_LB_COUNTER(llc_imbalance_by_tasks)
RUST_LB_COUNTER(llc_imbalance_by_util)
RUST_LB_COUNTER(idle_cpus_underflow_avoided)

/* SERIALIZE_DUE and SERIALIZE_RQ: attempts counted at the atomic */
RUST_LB_COUNTER(serialize_attempts)
RUST_LB_COUNTER(serialize_newidle_attempts)
RUST_LB_COUNTER(serialize_skipped_not_due)
RUST_LB_COUNTER(serialize_contended)
RUST_LB_COUNTER(serialize_due)

/* Placement, sampled at the tick while schedstats are on (both states). */
RUST_LB_COUNTER(placement_ticks)
RUST_LB_COUNTER(placement_stacked)
RUST_LB_COUNTER(placement_stacked_idle)

/* Policy modules */
RUST_LB_COUNTER(policy_decisions)
RUST_LB_COUNTER(policy_rejected)
RUST_LB_COUNTER(policy_detached)

/* RUST_LB_VERIFY: its checks and mismatches per decision, from rust_lb_decisions.h. */
