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
static int idle_policy;

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
	long n = 1;
	unsigned int i;
	int opt, err;

	while ((opt = getopt(argc, argv, "r:n:ih")) != -1) {
		switch (opt) {
		case 'r':
			runtime = parse_double(opt, optarg, BENCH_DBL_POSITIVE, 86400);
			break;
		case 'n':
			n = parse_long(opt, optarg, 1, 4096);
			break;
		case 'i':
			idle_policy = 1;
			break;
		default:
			common_opt(opt, NULL);
			break;
		}
	}
	if (optind != argc || runtime < 0) {
		fprintf(stderr, PROG ": %s\n", optind != argc ?
			"unexpected argument" : "-r SECONDS is required");
		print_usage(stderr);
		return 2;
	}

	watchdog((unsigned int)runtime + 60);

	tids = calloc((size_t)n, sizeof(*tids));
	if (!tids)
		die("calloc");
	thread_attr_init(&attr, 64 * 1024);
	deadline = now_ns() + (uint64_t)(runtime * 1e9);
	for (i = 0; i < (unsigned int)n; i++) {
		err = pthread_create(&tids[i], &attr, spin_fn, (void *)(uintptr_t)(i + 1));
		if (err)
			die_err("pthread_create", err);
	}
	for (i = 0; i < (unsigned int)n; i++) {
		err = pthread_join(tids[i], NULL);
		if (err)
			die_err("pthread_join", err);
	}
	pthread_attr_destroy(&attr);
	free(tids);
	return 0;
}
