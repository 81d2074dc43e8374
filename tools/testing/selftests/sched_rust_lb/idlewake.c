// SPDX-License-Identifier: GPL-2.0-only
/*
 * idlewake - mostly idle CPUs that keep waking up: newidle balancing runs
 * every time a CPU goes idle and dominates the scheduler's work.
 *
 * N threads (default: online CPUs).  Each loops until the end of the run:
 *   t0 = now; clock_nanosleep(-p usec); t1 = now; busy-spin -u usec
 * and counts loops.  t1 - t0 - sleep is the "oversleep" (timer slack plus
 * wakeup latency); its mean and maximum are reported as a side metric.
 *
 * loops/sec = loops completed by all threads / measured runtime.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PROG "idlewake"
#include "bench.h"

static struct {
	unsigned int threads;
	uint64_t sleep_ns;
	uint64_t spin_ns;
	double runtime_s;
	bool json;
	uint64_t end;		/* ns, CLOCK_MONOTONIC */
} cfg = {
	.sleep_ns = 200 * 1000ULL,
	.spin_ns = 20 * 1000ULL,
	.runtime_s = 5,
};

struct thr {
	uint64_t loops;
	uint64_t oversleep_sum;
	uint64_t oversleep_max;
	pthread_t tid;
} __aligned(64);

static void *thread_fn(void *arg)
{
	struct thr *t = arg;

	for (;;) {
		uint64_t t0, t1, over;

		t0 = now_ns();
		if (t0 >= cfg.end)
			break;
		sleep_ns(cfg.sleep_ns);
		t1 = now_ns();
		over = t1 - t0 > cfg.sleep_ns ? t1 - t0 - cfg.sleep_ns : 0;
		t->oversleep_sum += over;
		if (over > t->oversleep_max)
			t->oversleep_max = over;
		spin_until(t1 + cfg.spin_ns);
		t->loops++;
	}
	return NULL;
}

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [-n THREADS] [-p SLEEP_USEC] [-u SPIN_USEC] [-r SECONDS] [-j]\n"
		"  -n N   threads (default: online CPUs)\n"
		"  -p U   sleep per loop, usec (default 200)\n"
		"  -u U   busy spin per loop, usec (default 20)\n"
		"  -r S   runtime in seconds (default 5)\n"
		"  -j     also print one JSON line at the end\n");
}

static const struct bench_opt opts[] = {
	{ OPT_UINT('n', &cfg.threads, 1, 4096) },
	{ OPT_USEC('p', &cfg.sleep_ns, 1, 10000000) },
	{ OPT_USEC('u', &cfg.spin_ns, 0, 10000000) },
	{ OPT_SECONDS('r', &cfg.runtime_s, 0.001, 86400) },
	{ OPT_FLAG('j', &cfg.json) },
};

int main(int argc, char **argv)
{
	struct thr *thr;
	pthread_attr_t attr;
	uint64_t start, loops = 0, over_sum = 0, over_max = 0;
	unsigned int i;
	double elapsed, lps, over_avg_us;

	cfg.threads = online_cpus();
	parse_options(argc, argv, opts, ARRAY_SIZE(opts));
	no_operands(argc, argv);

	watchdog((unsigned int)(cfg.runtime_s + 60 +
				2 * (double)(cfg.sleep_ns + cfg.spin_ns) / 1e9));

	thr = zalloc_aligned(cfg.threads, sizeof(*thr), "aligned_alloc");
	thread_attr_init(&attr, 256 * 1024);

	start = now_ns();
	cfg.end = start + s_to_ns(cfg.runtime_s);
	for (i = 0; i < cfg.threads; i++)
		thread_start(&thr[i].tid, &attr, thread_fn, &thr[i], "pthread_create");
	for (i = 0; i < cfg.threads; i++) {
		thread_join(thr[i].tid);
		loops += thr[i].loops;
		over_sum += thr[i].oversleep_sum;
		if (thr[i].oversleep_max > over_max)
			over_max = thr[i].oversleep_max;
	}
	elapsed = ns_to_s(now_ns() - start);
	alarm(0);
	pthread_attr_destroy(&attr);

	lps = (double)loops / elapsed;
	over_avg_us = loops ? (double)over_sum / (double)loops / 1000.0 : 0.0;
	fprintf(stdout,
		"idlewake: %u threads, sleep %llu usec, spin %llu usec, runtime %g s (measured %.3f s)\n",
		cfg.threads, (unsigned long long)(cfg.sleep_ns / 1000),
		(unsigned long long)(cfg.spin_ns / 1000), cfg.runtime_s, elapsed);
	printf("loops: %llu\n", (unsigned long long)loops);
	printf("oversleep usec: avg %.1f max %.1f\n", over_avg_us,
	       (double)over_max / 1000.0);
	printf("loops/sec: %.1f\n", lps);
	if (cfg.json)
		json_line(stdout,
			  "\"loops_per_s\":%.1f,\"loops\":%llu,\"threads\":%u,\"sleep_us\":%llu,\"spin_us\":%llu,\"oversleep_avg_us\":%.1f,\"oversleep_max_us\":%.1f,\"runtime_s\":%.3f",
			  lps, (unsigned long long)loops, cfg.threads,
			  (unsigned long long)(cfg.sleep_ns / 1000),
			  (unsigned long long)(cfg.spin_ns / 1000), over_avg_us,
			  (double)over_max / 1000.0, elapsed);
	flush_stdout();
	free(thr);
	return 0;
}
