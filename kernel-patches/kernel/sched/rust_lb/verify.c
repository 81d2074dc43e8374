// SPDX-License-Identifier: GPL-2.0
/*
 * RUST_LB_VERIFY's bookkeeping: a shim whose helper has a stock C twin
 * reports whether the two decided alike; disagreements are counted and
 * reported.  Per decision, /sys/kernel/debug/sched/rust_lb shows
 * "verify_checks_<name>" and "verify_mismatches_<name>": with a policy
 * module loaded, how often its answers diverge from the stock C.  Counted
 * and reset as the other counters are.
 */
#include "glue.h"

static const char * const rust_lb_check_names[RUST_LB_NR_CHECKS] = {
#define RUST_LB_CHECK(name)	\
	[rust_lb_check_##name] = #name,
#include "../rust_lb_checks.h"
#undef RUST_LB_CHECK
};

/*
 * Called with a runqueue lock or p->pi_lock held (sched_balance_newidle(),
 * ttwu_queue_cond()): a console driver that wakes a task could take those
 * locks again, so the report goes through printk_deferred(), and the
 * ratelimit state is a raw spinlock taken with trylock.
 */
static DEFINE_RATELIMIT_STATE(rust_lb_verify_rs, DEFAULT_RATELIMIT_INTERVAL,
			      DEFAULT_RATELIMIT_BURST);

void sched_rust_lb_verify(enum rust_lb_check check, bool match)
{
	rust_lb_count(RUST_LB_VERIFY_CHECKS + check, 1);
	if (match)
		return;
	rust_lb_count(RUST_LB_VERIFY_MISMATCHES + check, 1);
	/* No KERN_ level: the default message level is a warning. */
	if (__ratelimit(&rust_lb_verify_rs))
		printk_deferred("sched: rust_lb: verify: Rust and C disagree in %s on CPU %d\n",
				rust_lb_check_names[check],
				raw_smp_processor_id());
}
