/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The decisions of the Rust helpers, one line each, named after the Rust
 * function that takes it: RUST_LB_DECISION(name) is
 * rust_lb_decision_<name> (enum rust_lb_decision), what a policy module
 * may answer (rust/kernel/sched/policy.rs), what RUST_LB_VERIFY compares
 * with its C twin (rust_lb_twin_<name>() in rust_lb_twins.h), and "<name>"
 * in the counters verify_checks_<name> and verify_mismatches_<name> and
 * in the log.  No include guard: each user expands the list with its own
 * RUST_LB_DECISION().
 */
RUST_LB_DECISION(ilb_scan_depth)
RUST_LB_DECISION(sis_util_scan)
RUST_LB_DECISION(newidle_skip)
RUST_LB_DECISION(ttwu_queue_cond)
RUST_LB_DECISION(spare_imbalance)
RUST_LB_DECISION(serialize_try)
