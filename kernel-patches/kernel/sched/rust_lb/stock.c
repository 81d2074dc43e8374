// SPDX-License-Identifier: GPL-2.0
/*
 * The shims' stock positions (RUST_LB_STOCK() in ../rust_lb_decisions.h).
 *
 * A shim's Rust path serves every position of its features, checks
 * itself under RUST_LB_VERIFY, counts while schedstats are on and asks a
 * policy module that answers its decision.  In the stock position none of
 * that is wanted: the rule is the stock one, and there is nothing to
 * check, count or ask.  There, rust_lb_stock_<name>_key is on, and the
 * shim runs the stock rule in Rust alone (rust_lb_stock_on() in
 * ../rust_lb.h), at the cost of the stock C.
 *
 * The keys follow what they depend on: sched_feat_write() (with the CPU
 * hotplug lock read-held), set_schedstats() and policy registration call
 * in here.  A shim that sees its key on just before it goes off runs the
 * stock rule once more, as it would have a moment earlier.
 */
#include "glue.h"

#define RUST_LB_STOCK(name, ...)	DEFINE_STATIC_KEY_FALSE(rust_lb_stock_##name##_key);
#include "../rust_lb_decisions.h"
#undef RUST_LB_STOCK

/* Serializes rust_lb_stock_update(). */
static DEFINE_MUTEX(rust_lb_stock_mutex);

/* Whether the registered policy module answers @decision. */
#define rust_lb_answered(decision)					\
	(rust_lb_policy_answered() & BIT(rust_lb_decision_##decision))

static void rust_lb_stock_set(struct static_key_false *key, bool on)
{
	if (on)
		static_branch_enable_cpuslocked(key);
	else
		static_branch_disable_cpuslocked(key);
}

/* With the CPU hotplug lock read-held. */
void rust_lb_stock_update(void)
{
	bool plain;

	lockdep_assert_cpus_held();
	guard(mutex)(&rust_lb_stock_mutex);
	plain = sched_feat(RUST_LB) && !sched_feat(RUST_LB_VERIFY) && !schedstat_enabled();
#define RUST_LB_STOCK(name, decision, position)				\
	rust_lb_stock_set(&rust_lb_stock_##name##_key,			\
			  plain && (position) && !rust_lb_answered(decision));
#include "../rust_lb_decisions.h"
#undef RUST_LB_STOCK
}

/* A sched feature changed (kernel/sched/debug.c). */
void sched_rust_lb_features_changed(void)
{
	rust_lb_stock_update();
	if (IS_ENABLED(CONFIG_SCHED_RUST_LB_POLICY))
		rust_lb_hooks_update();
}

/* Schedstats were turned on or off (kernel/sched/core.c). */
void sched_rust_lb_schedstats_changed(void)
{
	cpus_read_lock();
	rust_lb_stock_update();
	cpus_read_unlock();
}

static int __init sched_rust_lb_stock_init(void)
{
	sched_rust_lb_schedstats_changed();
	return 0;
}
early_initcall(sched_rust_lb_stock_init);

#ifdef CONFIG_DEBUG_FS
/* /sys/kernel/debug/sched/rust_lb_stock: "<shim> <0|1>" per stock position. */
static int rust_lb_stock_show(struct seq_file *m, void *v)
{
#define RUST_LB_STOCK(name, ...)					\
	seq_printf(m, "%s %d\n", #name,					\
		   static_key_enabled(&rust_lb_stock_##name##_key));
#include "../rust_lb_decisions.h"
#undef RUST_LB_STOCK
	return 0;
}

DEFINE_SHOW_ATTRIBUTE(rust_lb_stock);

static int __init sched_rust_lb_stock_debugfs_init(void)
{
	sched_rust_lb_debugfs_create("rust_lb_stock", 0444, &rust_lb_stock_fops);
	return 0;
}
late_initcall_sync(sched_rust_lb_stock_debugfs_init);
#endif /* CONFIG_DEBUG_FS */
