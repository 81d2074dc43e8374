// SPDX-License-Identifier: GPL-2.0
/*
 * The helpers' event counters: per CPU, listed once in
 * kernel/sched/rust_lb_counters.h (and, per decision, from
 * rust_lb_decisions.h, RUST_LB_VERIFY's and the policy rejections), summed
 * in /sys/kernel/debug/sched/rust_lb as one "name value" line each and
 * reset by writing 0 (any other write fails with -EINVAL).  They count
 * while schedstats are enabled: C adds to them with rust_lb_count(), Rust
 * with count!(), both inline.
 */
#include "glue.h"

DEFINE_PER_CPU(u64 [RUST_LB_NR_COUNTERS], rust_lb_counters);

static const char * const rust_lb_counter_names[RUST_LB_NR_COUNTERS] = {
#define RUST_LB_COUNTER(name)	\
	[rust_lb_##name] = #name,
#include "../rust_lb_counters.h"
#undef RUST_LB_COUNTER
#define RUST_LB_DECISION(name)						\
	[RUST_LB_VERIFY_CHECKS + rust_lb_decision_##name] = "verify_checks_" #name, \
	[RUST_LB_VERIFY_MISMATCHES + rust_lb_decision_##name] = "verify_mismatches_" #name, \
	[RUST_LB_POLICY_REJECTED + rust_lb_decision_##name] = "policy_rejected_" #name,
#include "../rust_lb_decisions.h"
#undef RUST_LB_DECISION
};

void sched_rust_lb_debugfs_create(const char *name, umode_t mode,
				  const struct file_operations *fops)
{
	struct dentry *dir = debugfs_lookup("sched", NULL);

	/* Without the scheduler's directory the file would land in the root. */
	if (IS_ERR_OR_NULL(dir)) {
		pr_warn("sched: rust_lb: no debugfs directory 'sched', no %s\n", name);
		return;
	}
	debugfs_create_file(name, mode, dir, NULL, fops);
	dput(dir);
}

#ifdef CONFIG_DEBUG_FS
static int rust_lb_counters_show(struct seq_file *m, void *v)
{
	int i, cpu;

	for (i = 0; i < RUST_LB_NR_COUNTERS; i++) {
		u64 sum = 0;

		for_each_possible_cpu(cpu)
			sum += per_cpu(rust_lb_counters[i], cpu);
		seq_printf(m, "%s %llu\n", rust_lb_counter_names[i], sum);
	}
	return 0;
}

/* Writing "0" resets every counter; anything else is refused. */
static ssize_t rust_lb_counters_write(struct file *filp, const char __user *ubuf,
				      size_t cnt, loff_t *ppos)
{
	u64 val;
	int ret, i, cpu;

	ret = kstrtoull_from_user(ubuf, cnt, 10, &val);
	if (ret)
		return ret;
	if (val)
		return -EINVAL;
	for_each_possible_cpu(cpu)
		for (i = 0; i < RUST_LB_NR_COUNTERS; i++)
			per_cpu(rust_lb_counters[i], cpu) = 0;
	*ppos += cnt;
	return cnt;
}

DEFINE_SHOW_STORE_ATTRIBUTE(rust_lb_counters);

static int __init sched_rust_lb_counters_init(void)
{
	sched_rust_lb_debugfs_create("rust_lb", 0644, &rust_lb_counters_fops);
	return 0;
}
late_initcall_sync(sched_rust_lb_counters_init);
#endif /* CONFIG_DEBUG_FS */
