// SPDX-License-Identifier: GPL-2.0
/*
 * The helpers' benchmark (CONFIG_SCHED_RUST_LB_BENCH).
 */
#include "glue.h"

/*
 * Benchmark: each helper against its stock C twin, on this CPU, over
 * inputs drawn once from a fixed xorshift sequence.  Write the number of
 * iterations (2..1000000) to /sys/kernel/debug/sched/rust_lb_bench, read
 * the table back.  The C twins are the stock code: the same expressions as
 * the shims' RUST_LB_VERIFY twins, and calculate_spare_imbalance() itself.
 * It runs in chunks of RUST_LB_BENCH_CHUNK calls, each with interrupts off
 * and this CPU's event counters restored afterwards (the helpers count
 * their calls), with a chance to reschedule between chunks.
 */
#define RUST_LB_BENCH_INPUTS	256
#define RUST_LB_BENCH_CHUNK	1024

enum { BENCH_LLC_SHARED, BENCH_SIS_UTIL, BENCH_ILB_DEPTH, BENCH_NEWIDLE,
	BENCH_TTWU, BENCH_SPARE, BENCH_NR };

static const char * const rust_lb_bench_names[BENCH_NR] = {
	"get_llc_shared", "sis_util_scan", "ilb_scan_depth", "newidle_skip",
	"ttwu_queue_cond", "calculate_imbalance",
};

static struct {
	u64 iterations;
	u64 checksum;		/* keeps the compiler from dropping the loops */
	u64 ns[BENCH_NR][2];	/* [helper][0: Rust, 1: C] */
	bool valid[BENCH_NR];
} rust_lb_bench_result;

static DEFINE_MUTEX(rust_lb_bench_mutex);

struct rust_lb_bench_input {
	u64 util;
	u32 nr_groups, weight, pct, nr;
	bool overloaded, on_cpu;
	struct sd_lb_stats sds;
};

static u64 rust_lb_xorshift(u64 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static noinline u32 rust_lb_c_sis_util(u64 sum_util, u32 llc_weight, u32 pct)
{
	u64 x = sum_util, y, tmp;

	do_div(x, llc_weight);
	tmp = x * x * pct * pct;
	do_div(tmp, 10000 * SCHED_CAPACITY_SCALE);
	tmp = min_t(long, tmp, SCHED_CAPACITY_SCALE);
	y = (SCHED_CAPACITY_SCALE - tmp) * llc_weight;
	do_div(y, SCHED_CAPACITY_SCALE);
	return y;
}

static noinline u32 rust_lb_c_ilb_depth(u32 nr_groups, u64 sum_util, u32 weight)
{
	u64 nr_scan = (u64)nr_groups * sum_util;

	do_div(nr_scan, weight * SCHED_CAPACITY_SCALE);
	return nr_groups - nr_scan;
}

static noinline struct sched_domain_shared *rust_lb_c_llc_shared(struct lb_env *env)
{
	if (per_cpu(sd_llc_size, env->dst_cpu) != env->sd->span_weight)
		return NULL;
	return rcu_dereference(per_cpu(sd_llc_shared, env->dst_cpu));
}

static void rust_lb_bench_fill(struct rust_lb_bench_input *in, struct sched_domain *sd)
{
	u64 x = 0x9e3779b97f4a7c15ULL;
	int i;

	for (i = 0; i < RUST_LB_BENCH_INPUTS; i++) {
		struct sg_lb_stats *l = &in[i].sds.local_stat, *b = &in[i].sds.busiest_stat;

		in[i].weight = 1 + rust_lb_xorshift(&x) % 64;
		in[i].nr_groups = 1 + rust_lb_xorshift(&x) % in[i].weight;
		in[i].util = rust_lb_xorshift(&x) % (in[i].weight * SCHED_CAPACITY_SCALE);
		in[i].pct = 110 + rust_lb_xorshift(&x) % 20;
		in[i].nr = rust_lb_xorshift(&x) % 3;
		in[i].overloaded = rust_lb_xorshift(&x) & 1;
		in[i].on_cpu = rust_lb_xorshift(&x) & 1;
		memset(&in[i].sds, 0, sizeof(in[i].sds));
		in[i].sds.local = sd->groups;
		in[i].sds.busiest = sd->groups->next;
		in[i].sds.prefer_sibling = rust_lb_xorshift(&x) & 1;
		l->group_type = group_has_spare;
		b->group_type = rust_lb_xorshift(&x) % (group_overloaded + 1);
		l->group_weight = sd->groups->group_weight;
		b->group_weight = sd->groups->next->group_weight;
		l->idle_cpus = rust_lb_xorshift(&x) % (l->group_weight + 1);
		b->idle_cpus = rust_lb_xorshift(&x) % (b->group_weight + 1);
		l->sum_nr_running = rust_lb_xorshift(&x) % 8;
		b->sum_nr_running = rust_lb_xorshift(&x) % 8;
		l->group_capacity = l->group_weight * SCHED_CAPACITY_SCALE;
		l->group_util = rust_lb_xorshift(&x) % (l->group_capacity + 512);
	}
}

/* Runs one side (rust: true/false) of every helper; returns a checksum. */
static u64 rust_lb_bench_pass(struct rust_lb_bench_input *in, struct lb_env *env,
			      struct rq *rq, u64 n, bool rust, u64 *ns)
{
	/* The newidle decision is about the CPU's lowest domain, as in C. */
	struct sched_domain *lowest = rcu_dereference(rq->sd);
	u64 sink = 0, i, t;

	t = local_clock();
	for (i = 0; i < n; i++)
		sink += (unsigned long)(rust ? rust_lb_get_llc_shared(env) :
					       rust_lb_c_llc_shared(env));
	ns[BENCH_LLC_SHARED] += local_clock() - t;

	t = local_clock();
	for (i = 0; i < n; i++) {
		struct rust_lb_bench_input *p = &in[i % RUST_LB_BENCH_INPUTS];

		sink += rust ? rust_lb_sis_util_scan(p->util, p->weight, p->pct) :
			       rust_lb_c_sis_util(p->util, p->weight, p->pct);
	}
	ns[BENCH_SIS_UTIL] += local_clock() - t;

	t = local_clock();
	for (i = 0; i < n; i++) {
		struct rust_lb_bench_input *p = &in[i % RUST_LB_BENCH_INPUTS];

		sink += rust ? rust_lb_ilb_scan_depth(p->nr_groups, p->util, p->weight) :
			       rust_lb_c_ilb_depth(p->nr_groups, p->util, p->weight);
	}
	ns[BENCH_ILB_DEPTH] += local_clock() - t;

	t = local_clock();
	for (i = 0; i < n; i++) {
		struct rust_lb_bench_input *p = &in[i % RUST_LB_BENCH_INPUTS];

		sink += rust ? rust_lb_newidle_skip(rq, lowest, p->overloaded, true) :
			       (!p->overloaded || rq->avg_idle < lowest->max_newidle_lb_cost);
	}
	ns[BENCH_NEWIDLE] += local_clock() - t;

	t = local_clock();
	for (i = 0; i < n; i++) {
		struct rust_lb_bench_input *p = &in[i % RUST_LB_BENCH_INPUTS];

		sink += rust ? rust_lb_ttwu_queue_cond(p->nr, p->on_cpu, true) : !p->nr;
	}
	ns[BENCH_TTWU] += local_clock() - t;

	t = local_clock();
	for (i = 0; i < n; i++) {
		struct rust_lb_bench_input *p = &in[i % RUST_LB_BENCH_INPUTS];

		if (rust)
			rust_lb_spare_imbalance(env, &p->sds, true);
		else
			sched_rust_lb_c_spare_imbalance(env, &p->sds);
		sink += env->imbalance + env->migration_type;
	}
	ns[BENCH_SPARE] += local_clock() - t;
	return sink;
}

/*
 * One chunk of @n calls of one side, on whichever CPU runs it, against that
 * CPU's LLC domain (looked up again: domains may have been rebuilt since
 * the last chunk, and the inputs point at its groups).
 */
static int rust_lb_bench_chunk(struct rust_lb_bench_input *in, u64 n, bool rust,
			       u64 *ns, u64 *sum)
{
	u64 saved[RUST_LB_NR_COUNTERS];
	struct lb_env env = { .idle = CPU_NEWLY_IDLE };
	struct sched_domain *sd;
	unsigned long flags;
	int cpu, ret = 0;

	local_irq_save(flags);
	rcu_read_lock();
	cpu = smp_processor_id();
	sd = rcu_dereference(per_cpu(sd_llc, cpu));
	if (!sd || sd->groups == sd->groups->next) {
		ret = -ENODEV;	/* no LLC domain with two groups to balance */
		goto out;
	}
	env.sd = sd;
	env.dst_cpu = cpu;
	env.dst_rq = cpu_rq(cpu);
	rust_lb_bench_fill(in, sd);
	sched_rust_lb_counters_save(saved);
	*sum += rust_lb_bench_pass(in, &env, env.dst_rq, n, rust, ns);
	sched_rust_lb_counters_restore(saved);
out:
	rcu_read_unlock();
	local_irq_restore(flags);
	return ret;
}

static int rust_lb_bench_run(u64 n)
{
	struct rust_lb_bench_input *in;
	u64 ns[2][BENCH_NR] = { };
	u64 sum = 0, done, len;
	int h, round, ret = 0;

	in = kmalloc_array(RUST_LB_BENCH_INPUTS, sizeof(*in), GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	/* A B B A: neither side always runs first. */
	for (round = 0; round < 4; round++) {
		bool rust = round == 0 || round == 3;

		for (done = 0; done < n / 2; done += len) {
			len = min_t(u64, RUST_LB_BENCH_CHUNK, n / 2 - done);
			ret = rust_lb_bench_chunk(in, len, rust, ns[!rust], &sum);
			if (ret)
				goto out;
			cond_resched();
		}
	}
	mutex_lock(&rust_lb_bench_mutex);
	rust_lb_bench_result.iterations = 2 * (n / 2);
	rust_lb_bench_result.checksum = sum;
	for (h = 0; h < BENCH_NR; h++) {
		rust_lb_bench_result.ns[h][0] = ns[0][h];
		rust_lb_bench_result.ns[h][1] = ns[1][h];
		rust_lb_bench_result.valid[h] = true;
	}
	mutex_unlock(&rust_lb_bench_mutex);
out:
	kfree(in);
	return ret;
}

static int rust_lb_bench_show(struct seq_file *m, void *v)
{
	int h;

	mutex_lock(&rust_lb_bench_mutex);
	seq_printf(m, "%-20s %10s %10s %10s %8s\n", "helper", "iterations",
		   "rust_ps", "c_ps", "rust/c");
	for (h = 0; h < BENCH_NR; h++) {
		u64 n = rust_lb_bench_result.iterations;
		u64 r = rust_lb_bench_result.ns[h][0], c = rust_lb_bench_result.ns[h][1];

		if (!rust_lb_bench_result.valid[h] || !n)
			continue;
		/* picoseconds per call; the ratio in hundredths */
		seq_printf(m, "%-20s %10llu %10llu %10llu %5llu.%02llu\n",
			   rust_lb_bench_names[h], n, div64_u64(r * 1000, n),
			   div64_u64(c * 1000, n), div64_u64(r, c ?: 1),
			   div64_u64(r * 100, c ?: 1) % 100);
	}
	mutex_unlock(&rust_lb_bench_mutex);
	return 0;
}

static ssize_t rust_lb_bench_write(struct file *filp, const char __user *ubuf,
				   size_t cnt, loff_t *ppos)
{
	u64 n;
	int ret;

	ret = kstrtoull_from_user(ubuf, cnt, 10, &n);
	if (ret)
		return ret;
	if (n < 2 || n > 1000000)
		return -EINVAL;
	ret = rust_lb_bench_run(n);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

DEFINE_SHOW_STORE_ATTRIBUTE(rust_lb_bench);

static int __init sched_rust_lb_bench_init(void)
{
	sched_rust_lb_debugfs_create("rust_lb_bench", 0644, &rust_lb_bench_fops);
	return 0;
}
late_initcall_sync(sched_rust_lb_bench_init);
