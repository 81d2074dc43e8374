// SPDX-License-Identifier: GPL-2.0-only
/*
 * spin - burn CPU in N threads for R seconds (creates overload).
 *
 *   spin -r SECONDS [-n THREADS] [-i]
 *
 * Each thread runs a short arithmetic loop between CLOCK_MONOTONIC reads
 * until the deadline; prints nothing on success.  With -i the threads run
 * under SCHED_IDLE, so any other task preempts them at once: the CPUs are
 * busy for the host (every vCPU runs) while the guest's scheduler has
 * nothing to decide, which measures the emulator's own wakeup latency
 * under load.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define PROG "spin"
#define BENCH_WATCHDOG_MSG PROG ": watchdog expired\n"
#include "bench.h"

static uint64_t deadline;
static bool idle_policy;

static void *spin_fn(void *arg)
{
	uint64_t x = (uintptr_t)arg;
	struct sched_param sp = { .sched_priority = 0 };

	/* SCHED_IDLE for this thread only (0: the calling thread). */
	if (idle_policy && sched_setscheduler(0, SCHED_IDLE, &sp))
		die("sched_setscheduler(SCHED_IDLE)");
	while (now_ns() < deadline) {
		unsigned int i;

		for (i = 0; i < 1000; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			/* x lives in memory: a load and a store per step */
			asm volatile("" : "+m" (x));
		}
	}
	return NULL;
}

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " -r SECONDS [-n THREADS] [-i]\n"
		"  -r S   run for S seconds (required)\n"
		"  -n N   spinning threads (default 1)\n"
		"  -i     run them under SCHED_IDLE\n");
}

int main(int argc, char **argv)
{
	pthread_t *tids;
	pthread_attr_t attr;
	double runtime = -1;
	unsigned int n = 1, i;
	const struct bench_opt opts[] = {
		{ OPT_SECONDS('r', &runtime, BENCH_DBL_POSITIVE, 86400) },
		{ OPT_UINT('n', &n, 1, 4096) },
		{ OPT_FLAG('i', &idle_policy) },
	};

	parse_options(argc, argv, opts, ARRAY_SIZE(opts));
	if (optind != argc || runtime < 0)
		usage_error("%s", optind != argc ?
			    "unexpected argument" : "-r SECONDS is required");

	watchdog((unsigned int)runtime + 60);

	tids = calloc(n, sizeof(*tids));
	if (!tids)
		die("calloc");
	thread_attr_init(&attr, 64 * 1024);
	deadline = now_ns() + s_to_ns(runtime);
	for (i = 0; i < n; i++)
		thread_start(&tids[i], &attr, spin_fn, (void *)(uintptr_t)(i + 1),
			     "pthread_create");
	for (i = 0; i < n; i++)
		thread_join(tids[i]);
	pthread_attr_destroy(&attr);
	free(tids);
	return 0;
}
