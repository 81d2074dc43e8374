// SPDX-License-Identifier: GPL-2.0
/*
 * jl_race: the smallest kernel that shows whether flipping a static key
 * while other CPUs run through its site is safe on this machine (see
 * Documentation/robustness.rst, "Static keys under QEMU").
 *
 * One kthread per online CPU but the loader's runs a loop through one
 * static-branch site (or, with pair=1, through that site immediately
 * followed by a second site on another key, the layout of a sched_feat()
 * test followed by a schedstat test).  The loader flips the first key as
 * fast as static_branch_enable()/disable() go for @seconds, then stops
 * the threads and reports.  Each flip is a text_poke_bp() of the site:
 * INT3, sync, tail, sync, first byte, sync.  On a coherent machine a CPU
 * never executes that INT3 once the last sync returned; a stale copy of
 * the site executed later is an "Oops: int3".
 *
 * Built against a stock 6.12 tree with CONFIG_MODULES=y:
 *	make -C KSRC O=OBJ M=$PWD modules
 * Loading it runs the test (insmod returns when it is over; the module
 * stays loaded, idle): insmod jl_race.ko seconds=20 pair=1
 */
#include <linux/delay.h>
#include <linux/jump_label.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>

static unsigned int seconds = 20;
module_param(seconds, uint, 0444);
MODULE_PARM_DESC(seconds, "how long to flip the key (default 20)");
static bool pair;
module_param(pair, bool, 0444);
MODULE_PARM_DESC(pair, "a second static-branch site right after the first");

static DEFINE_STATIC_KEY_TRUE(jl_race_flipped);
static DEFINE_STATIC_KEY_FALSE(jl_race_other);
static DEFINE_PER_CPU(unsigned long, jl_race_hits);
static DEFINE_PER_CPU(unsigned long, jl_race_loops);

static noinline void jl_race_site(void)
{
	if (static_branch_likely(&jl_race_flipped))
		this_cpu_inc(jl_race_hits);
	if (pair && static_branch_unlikely(&jl_race_other))
		this_cpu_inc(jl_race_hits);
	this_cpu_inc(jl_race_loops);
}

static int jl_race_thread(void *unused)
{
	while (!kthread_should_stop()) {
		int i;

		for (i = 0; i < 1000; i++)
			jl_race_site();
		cond_resched();
	}
	return 0;
}

static int __init jl_race_init(void)
{
	unsigned long end = jiffies + seconds * HZ, flips = 0, hits = 0, loops = 0;
	struct task_struct **threads;
	int cpu, self;

	threads = kcalloc(nr_cpu_ids, sizeof(*threads), GFP_KERNEL);
	if (!threads)
		return -ENOMEM;
	self = get_cpu();
	put_cpu();
	for_each_online_cpu(cpu) {
		struct task_struct *t;

		if (cpu == self)
			continue;
		t = kthread_create_on_cpu(jl_race_thread, NULL, cpu, "jl_race/%u");
		if (IS_ERR(t))
			continue;
		threads[cpu] = t;
		wake_up_process(t);
	}
	pr_info("jl_race: flipping for %u s, %s site(s), threads on every CPU but %d\n",
		seconds, pair ? "two adjacent" : "one", self);
	if (pair)
		static_branch_enable(&jl_race_other);
	while (time_before(jiffies, end)) {
		static_branch_disable(&jl_race_flipped);
		static_branch_enable(&jl_race_flipped);
		flips += 2;
		cond_resched();
	}
	for_each_online_cpu(cpu) {
		if (threads[cpu])
			kthread_stop(threads[cpu]);
		hits += per_cpu(jl_race_hits, cpu);
		loops += per_cpu(jl_race_loops, cpu);
	}
	kfree(threads);
	pr_info("jl_race: done: %lu flips, %lu loops, %lu taken\n", flips, loops, hits);
	return 0;
}
module_init(jl_race_init);

MODULE_DESCRIPTION("Flip a static key while every CPU runs through its site");
MODULE_LICENSE("GPL");
