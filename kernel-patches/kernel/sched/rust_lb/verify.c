// SPDX-License-Identifier: GPL-2.0
/*
 * RUST_LB_VERIFY's bookkeeping: a shim whose helper has a stock C twin
 * reports whether the two decided alike; disagreements are counted and
 * reported.  Per decision, /sys/kernel/debug/sched/rust_lb_verify shows
 * "<name> <checks> <mismatches>": with a policy module loaded, how often
 * its answers diverge from the stock C.  Counted, as the counters are,
 * while schedstats are enabled; writing 0 to the counters' file
 * (rust_lb) does not reset these, reading twice and subtracting does.
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

/* Per CPU and decision: [0] checks, [1] mismatches. */
static DEFINE_PER_CPU(u64 [RUST_LB_NR_CHECKS][2], rust_lb_verify_counts);

void sched_rust_lb_verify(unsigned int check, bool match)
{
	rust_lb_count(rust_lb_verify_checks, 1);
	if (check < RUST_LB_NR_CHECKS && schedstat_enabled())
		this_cpu_add(rust_lb_verify_counts[check][!match], 1);
	if (match)
		return;
	rust_lb_count(rust_lb_verify_mismatches, 1);
	/* No KERN_ level: the default message level is a warning. */
	if (__ratelimit(&rust_lb_verify_rs))
		printk_deferred("sched: rust_lb: verify: Rust and C disagree in %s on CPU %d\n",
				check < RUST_LB_NR_CHECKS ? rust_lb_check_names[check] : "?",
				raw_smp_processor_id());
}

#ifdef CONFIG_DEBUG_FS
static int rust_lb_verify_show(struct seq_file *m, void *v)
{
	int i, cpu;

	for (i = 0; i < RUST_LB_NR_CHECKS; i++) {
		u64 checks = 0, mismatches = 0;

		for_each_possible_cpu(cpu) {
			checks += per_cpu(rust_lb_verify_counts[i][0], cpu);
			mismatches += per_cpu(rust_lb_verify_counts[i][1], cpu);
		}
		seq_printf(m, "%s %llu %llu\n", rust_lb_check_names[i],
			   checks + mismatches, mismatches);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rust_lb_verify);

static int __init sched_rust_lb_verify_init(void)
{
	sched_rust_lb_debugfs_create("rust_lb_verify", 0444, &rust_lb_verify_fops);
	return 0;
}
late_initcall_sync(sched_rust_lb_verify_init);
#endif /* CONFIG_DEBUG_FS */
