/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The helpers' decisions and event counters (rust_lb/counters.c): what a
 * C file that counts needs, and nothing of the seam.  rust_lb.h includes
 * it, and so does bindgen through it.
 */
#ifndef _KERNEL_SCHED_RUST_LB_EVENTS_H
#define _KERNEL_SCHED_RUST_LB_EVENTS_H

#include <linux/percpu-defs.h>
#include <linux/types.h>

/*
 * The helpers' decisions (rust_lb_decisions.h): what a policy module may
 * answer and RUST_LB_VERIFY compares with its C twin.
 */
enum rust_lb_decision {
#define RUST_LB_DECISION(name) rust_lb_decision_##name,
#include "rust_lb_decisions.h"
#undef RUST_LB_DECISION
	RUST_LB_NR_DECISIONS,
};

/*
 * Event counters of the helpers (/sys/kernel/debug/sched/rust_lb), one
 * line each in rust_lb_counters.h: RUST_LB_COUNTER(name) is the counter
 * rust_lb_<name>, shown as "<name>".  After them, per decision, the checks
 * of RUST_LB_VERIFY (RUST_LB_VERIFY_CHECKS + decision, shown as
 * "verify_checks_<name>") and its mismatches (RUST_LB_VERIFY_MISMATCHES +
 * decision, "verify_mismatches_<name>"), and a policy module's answers
 * out of range (RUST_LB_POLICY_REJECTED + decision,
 * "policy_rejected_<name>").  The Rust side gets the enum through bindgen.
 */
enum rust_lb_counter {
#define RUST_LB_COUNTER(name) rust_lb_##name,
#include "rust_lb_counters.h"
#undef RUST_LB_COUNTER
	RUST_LB_VERIFY_CHECKS,
	RUST_LB_VERIFY_MISMATCHES = RUST_LB_VERIFY_CHECKS + RUST_LB_NR_DECISIONS,
	RUST_LB_POLICY_REJECTED = RUST_LB_VERIFY_MISMATCHES + RUST_LB_NR_DECISIONS,
	RUST_LB_NR_COUNTERS = RUST_LB_POLICY_REJECTED + RUST_LB_NR_DECISIONS,
};

/*
 * The counters, per CPU (rust_lb/counters.c).  They count while schedstats
 * are enabled: C through rust_lb_count(), Rust through count!(), both an
 * inline per-CPU add behind the sched_schedstats static key.
 */
DECLARE_PER_CPU(u64 [RUST_LB_NR_COUNTERS], rust_lb_counters);

#ifndef __BINDGEN__
/* Adds @n to @counter on this CPU, while schedstats are enabled. */
static inline void rust_lb_count(unsigned int counter, u64 n)
{
	if (IS_ENABLED(CONFIG_SCHED_RUST_LB) && schedstat_enabled() &&
	    counter < RUST_LB_NR_COUNTERS)
		this_cpu_add(rust_lb_counters[counter], n);
}
#endif

#endif /* _KERNEL_SCHED_RUST_LB_EVENTS_H */
