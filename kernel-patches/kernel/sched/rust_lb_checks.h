/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The decisions that RUST_LB_VERIFY checks against their stock C twin, one
 * line each, named after the C function whose decision it is:
 * RUST_LB_CHECK(name) is rust_lb_check_<name> (rust_lb_verify() in the
 * shims) and "<name>" in the report of a disagreement.  No include guard:
 * rust_lb.h and rust_lb/verify.c expand the list with their own
 * RUST_LB_CHECK().
 */
RUST_LB_CHECK(update_idle_cpu_scan)
RUST_LB_CHECK(newidle_skip)
RUST_LB_CHECK(ttwu_queue_cond)
RUST_LB_CHECK(calculate_imbalance)
