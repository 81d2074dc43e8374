/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the C files of the Rust load-balancing helpers include: the headers
 * that kernel/sched/build_utility.c puts before sched.h, sched.h itself and
 * the seam, rust_lb.h.  Each file of kernel/sched/rust_lb/ has one job:
 * counters.c (event counters and their debugfs file), verify.c
 * (RUST_LB_VERIFY's bookkeeping), topology.c (the boot-time seam check and
 * the on-demand domain check), placement.c (the tick's placement sample
 * for the experiments), stock.c (the shims' stock positions), policy.c
 * (policy modules' registration), bench.c (the benchmark,
 * CONFIG_SCHED_RUST_LB_BENCH), offsets.c (not an object: the top-level
 * Kbuild makes <generated/sched-rust-lb-offsets.h> of it).
 */
#ifndef _KERNEL_SCHED_RUST_LB_GLUE_H
#define _KERNEL_SCHED_RUST_LB_GLUE_H

#include <linux/sched/clock.h>
#include <linux/sched/cputime.h>
#include <linux/sched/debug.h>
#include <linux/sched/isolation.h>
#include <linux/sched/loadavg.h>
#include <linux/sched/nohz.h>
#include <linux/sched/mm.h>
#include <linux/sched/task_stack.h>
#include <linux/cpumask_api.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/spinlock_api.h>
#include <linux/wait_api.h>
#include <linux/workqueue_api.h>

#include "../sched.h"
#include "../rust_lb.h"

/*
 * Creates a file in the scheduler's debugfs directory; without that
 * directory, warns and creates nothing.
 */
void sched_rust_lb_debugfs_create(const char *name, umode_t mode,
				  const struct file_operations *fops);

/* "<name>" of each decision of rust_lb_decisions.h, for the log (verify.c). */
extern const char * const rust_lb_decision_names[RUST_LB_NR_DECISIONS];

#endif /* _KERNEL_SCHED_RUST_LB_GLUE_H */
