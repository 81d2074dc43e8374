// SPDX-License-Identifier: GPL-2.0
/*
 * The C->Rust seam, checked at boot, and the domain hierarchy as Rust sees
 * it, checked on demand (/sys/kernel/debug/sched/rust_lb_topology).
 */
#include "glue.h"

static int __init sched_rust_lb_init(void)
{
	/* Eight groups, half of their capacity in use: scan half of them. */
	u32 depth = rust_lb_ilb_scan_depth(8, 4 * SCHED_CAPACITY_SCALE, 8);

	pr_info("sched: rust_lb: C calls Rust: rust_lb_ilb_scan_depth(8, 4096, 8) = %u\n",
		depth);
	return 0;
}
late_initcall(sched_rust_lb_init);

#ifdef CONFIG_DEBUG_FS
/*
 * The domain hierarchy as Rust sees it, checked on demand: every online
 * CPU's domains span more CPUs level by level, and each ring of groups has
 * exactly sched_domain::nr_groups groups covering the span.  Shows
 * "domains D groups_mismatch M"; used after hotplug and cpuset storms.
 */
static int rust_lb_topology_show(struct seq_file *m, void *v)
{
	u64 r = rust_lb_check_topology();

	seq_printf(m, "domains %llu groups_mismatch %llu\n", r >> 32, r & U32_MAX);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rust_lb_topology);

static int __init sched_rust_lb_topology_init(void)
{
	sched_rust_lb_debugfs_create("rust_lb_topology", 0444, &rust_lb_topology_fops);
	return 0;
}
late_initcall_sync(sched_rust_lb_topology_init);
#endif /* CONFIG_DEBUG_FS */
