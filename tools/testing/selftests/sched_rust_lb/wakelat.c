// SPDX-License-Identifier: GPL-2.0-only
/*
 * wakelat - wakeup-latency benchmark (schbench-style method, own code).
 *
 * Threads
 *   M message threads; each owns T worker threads.
 *
 * Protocol (one "round" of a message thread)
 *   1. The message thread sets its pending counter to T.
 *   2. For each of its workers, in order:
 *        w->wake_ns = clock_gettime(CLOCK_MONOTONIC)   (just before the wake)
 *        w->state   = POSTED                            (release store)
 *        FUTEX_WAKE(&w->state, 1)
 *   3. It FUTEX_WAITs on its pending counter until that reaches 0.
 *   4. Optionally it nanosleeps -S usec, then starts the next round, until
 *      the end of the measurement window.  Then it posts EXIT to its workers.
 *
 *   The waker's side: the message thread reads the clock again when each
 *   FUTEX_WAKE returns, so the time it spent in the wakeup (the syscall,
 *   try_to_wake_up() and whatever that does on the waker's CPU) is
 *   known per wakeup.  Under QEMU's -icount shift=0 the guest's clock
 *   counts instructions, one per nanosecond: waker_ns is then the
 *   instructions the waker executes per wakeup.
 *
 *   A worker FUTEX_WAITs on its own state word while the word is IDLE.  Its
 *   first clock_gettime after leaving the wait is the "running" time:
 *      wakeup latency  = running time - w->wake_ns
 *   It sets its state back to IDLE, "thinks" (busy-spins -s usec), takes a
 *   second clock reading:
 *      request latency = done time - w->wake_ns
 *   then decrements the pending counter of its message thread (the last
 *   worker FUTEX_WAKEs the message thread) and goes back to sleep.
 *
 *   Worker state is only written by the message thread while the worker is
 *   IDLE and counted in pending==0, so IDLE->POSTED and POSTED->IDLE never
 *   race.
 *
 * Measurement window
 *   [start + warmup, start + warmup + runtime).  A request is counted when
 *   its wake_ns is inside the window; samples posted during the warmup are
 *   discarded.  RPS = counted requests / runtime.
 *
 * Histograms
 *   bench.h's log2-linear histogram in nanoseconds (128 buckets per power
 *   of two, relative resolution <= 0.78%).  Each worker owns its
 *   histograms (allocated before the run), so the hot path does no
 *   allocation and shares no cache lines; they are merged at the end.  A
 *   percentile reports the highest value of its bucket, clamped to the
 *   observed [min, max].
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROG "wakelat"
#include "bench.h"

/* ---- percentiles (the histogram is bench.h's) ------------------------- */

static const double pct_list[] = { 50.0, 90.0, 99.0, 99.9 };
#define NPCT ARRAY_SIZE(pct_list)

/* ---- helpers (futex_wait/futex_wake are bench.h's) --------------------- */

static void arm_watchdog(double seconds)
{
	if (seconds > 86400.0 * 7)
		seconds = 86400.0 * 7;
	watchdog((unsigned int)seconds + 1);
}

/* ---- benchmark --------------------------------------------------------- */

enum { W_IDLE = 0, W_POSTED = 1, W_EXIT = 2 };

struct msg_thread;

struct worker {
	uint32_t state;			/* futex word, written by waker */
	uint64_t wake_ns;		/* waker's clock before the wake */
	struct msg_thread *m;
	struct hist *wake_hist;
	struct hist *req_hist;
	uint64_t requests;
	pthread_t tid;
} __aligned(64);

struct msg_thread {
	uint32_t pending;		/* futex word: workers still busy */
	struct worker *workers;
	uint64_t rounds;
	uint64_t wake_calls;		/* FUTEX_WAKEs of a worker in the window */
	uint64_t wake_call_ns;		/* their summed duration */
	pthread_t tid;
} __aligned(64);

static struct {
	unsigned int nmsg;
	unsigned int nworkers;
	double runtime_s;
	double warmup_s;
	uint64_t think_ns;
	uint64_t round_sleep_ns;
	bool json;
	uint64_t measure_start;		/* ns, CLOCK_MONOTONIC */
	uint64_t measure_end;
} cfg = {
	.nmsg = 2,
	.nworkers = 4,
	.runtime_s = 5,
	.warmup_s = 1,
	.think_ns = 100 * 1000ULL,
	.round_sleep_ns = 0,
};

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	struct msg_thread *m = w->m;

	for (;;) {
		uint32_t s;
		uint64_t posted, running, done;

		while ((s = __atomic_load_n(&w->state, __ATOMIC_ACQUIRE)) == W_IDLE)
			futex_wait(&w->state, W_IDLE);
		running = now_ns();
		if (s == W_EXIT)
			break;
		posted = __atomic_load_n(&w->wake_ns, __ATOMIC_RELAXED);
		__atomic_store_n(&w->state, W_IDLE, __ATOMIC_RELAXED);

		spin_until(running + cfg.think_ns);
		done = now_ns();

		if (posted >= cfg.measure_start && posted < cfg.measure_end) {
			hist_add(w->wake_hist, running - posted);
			hist_add(w->req_hist, done - posted);
			w->requests++;
		}
		/* acq_rel orders the IDLE store before the message thread sees 0 */
		if (__atomic_fetch_sub(&m->pending, 1, __ATOMIC_ACQ_REL) == 1)
			futex_wake(&m->pending, 1);
	}
	return NULL;
}

static void *msg_fn(void *arg)
{
	struct msg_thread *m = arg;
	unsigned int i;

	while (now_ns() < cfg.measure_end) {
		uint32_t p;

		__atomic_store_n(&m->pending, cfg.nworkers, __ATOMIC_RELAXED);
		for (i = 0; i < cfg.nworkers; i++) {
			struct worker *w = &m->workers[i];
			uint64_t posted = now_ns(), woken;

			__atomic_store_n(&w->wake_ns, posted, __ATOMIC_RELAXED);
			__atomic_store_n(&w->state, W_POSTED, __ATOMIC_RELEASE);
			futex_wake(&w->state, 1);
			woken = now_ns();
			if (posted >= cfg.measure_start && posted < cfg.measure_end) {
				m->wake_calls++;
				m->wake_call_ns += woken - posted;
			}
		}
		while ((p = __atomic_load_n(&m->pending, __ATOMIC_ACQUIRE)) != 0)
			futex_wait(&m->pending, p);
		m->rounds++;
		if (cfg.round_sleep_ns)
			sleep_ns(cfg.round_sleep_ns);
	}
	for (i = 0; i < cfg.nworkers; i++) {
		__atomic_store_n(&m->workers[i].state, W_EXIT, __ATOMIC_RELEASE);
		futex_wake(&m->workers[i].state, 1);
	}
	return NULL;
}

static void print_hist(const char *title, const struct hist *h,
		       const struct hist_pct *p)
{
	unsigned int k;

	printf("%s percentiles (usec) runtime %g (s) (%llu total samples)\n",
	       title, cfg.runtime_s, (unsigned long long)h->count);
	for (k = 0; k < NPCT; k++)
		printf("\t%s%4.1fth: %-10llu (%llu samples)\n",
		       p[k].p == 99.0 ? "* " : "  ", p[k].p,
		       ns_to_us(p[k].ns), (unsigned long long)p[k].samples);
	printf("\t  min=%llu, max=%llu\n",
	       ns_to_us(h->count ? h->min : 0), ns_to_us(h->max));
}

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [-m MSG_THREADS] [-t WORKERS] [-r SECONDS] [-w SECONDS]\n"
		"               [-s THINK_USEC] [-S ROUND_SLEEP_USEC] [-j]\n"
		"  -m N   message threads (default 2)\n"
		"  -t N   worker threads per message thread (default 4)\n"
		"  -r S   measured runtime in seconds (default 5)\n"
		"  -w S   warmup seconds, samples discarded (default 1)\n"
		"  -s U   worker think time, busy-spin usec (default 100)\n"
		"  -S U   message thread sleep between rounds, usec (default 0)\n"
		"  -j     also print one JSON line at the end\n");
}

static const struct bench_opt opts[] = {
	{ OPT_UINT('m', &cfg.nmsg, 1, 1024) },
	{ OPT_UINT('t', &cfg.nworkers, 1, 4096) },
	{ OPT_SECONDS('r', &cfg.runtime_s, 0.001, 86400) },
	{ OPT_SECONDS('w', &cfg.warmup_s, 0, 86400) },
	{ OPT_USEC('s', &cfg.think_ns, 0, 10000000) },
	{ OPT_USEC('S', &cfg.round_sleep_ns, 0, 10000000) },
	{ OPT_FLAG('j', &cfg.json) },
};

int main(int argc, char **argv)
{
	struct msg_thread *msgs;
	struct worker *workers;
	struct hist *hists, wake_all, req_all;
	struct hist_pct wake_pct[NPCT], req_pct[NPCT];
	pthread_attr_t attr;
	uint64_t start, requests = 0, nthreads, wake_calls = 0, wake_call_ns = 0;
	unsigned int i, j;
	double rps, waker_ns;

	parse_options(argc, argv, opts, ARRAY_SIZE(opts));
	no_operands(argc, argv);
	nthreads = (uint64_t)cfg.nmsg * cfg.nworkers;
	if (nthreads > 16384)
		usage_error("too many workers (%llu > 16384)", (unsigned long long)nthreads);

	/* Bounded: warmup + runtime + the last round (think + sleep) + slack. */
	arm_watchdog(cfg.warmup_s + cfg.runtime_s + 60 +
		     2.0 * (double)(cfg.think_ns + cfg.round_sleep_ns) / 1e9);

	msgs = zalloc_aligned(cfg.nmsg, sizeof(*msgs), "malloc");
	workers = zalloc_aligned(nthreads, sizeof(*workers), "malloc");
	hists = malloc(sizeof(*hists) * nthreads * 2);
	if (!hists)
		die("malloc");

	thread_attr_init(&attr, 256 * 1024);

	/* Workers first: they park on IDLE until their message thread runs. */
	for (i = 0; i < cfg.nmsg; i++) {
		struct msg_thread *m = &msgs[i];

		m->workers = &workers[(uint64_t)i * cfg.nworkers];
		for (j = 0; j < cfg.nworkers; j++) {
			uint64_t n = (uint64_t)i * cfg.nworkers + j;
			struct worker *w = &m->workers[j];

			w->m = m;
			w->wake_hist = &hists[2 * n];
			w->req_hist = &hists[2 * n + 1];
			hist_init(w->wake_hist);
			hist_init(w->req_hist);
			__atomic_store_n(&w->state, W_IDLE, __ATOMIC_SEQ_CST);
			thread_start(&w->tid, &attr, worker_fn, w, "pthread_create(worker)");
		}
	}

	start = now_ns();
	cfg.measure_start = start + s_to_ns(cfg.warmup_s);
	cfg.measure_end = cfg.measure_start + s_to_ns(cfg.runtime_s);

	for (i = 0; i < cfg.nmsg; i++)
		thread_start(&msgs[i].tid, &attr, msg_fn, &msgs[i], "pthread_create(message)");

	for (i = 0; i < cfg.nmsg; i++) {
		thread_join(msgs[i].tid);
		wake_calls += msgs[i].wake_calls;
		wake_call_ns += msgs[i].wake_call_ns;
	}
	for (i = 0; i < nthreads; i++)
		thread_join(workers[i].tid);
	alarm(0);
	pthread_attr_destroy(&attr);

	hist_init(&wake_all);
	hist_init(&req_all);
	for (i = 0; i < nthreads; i++) {
		hist_merge(&wake_all, workers[i].wake_hist);
		hist_merge(&req_all, workers[i].req_hist);
		requests += workers[i].requests;
	}
	hist_percentiles(&wake_all, pct_list, NPCT, wake_pct);
	hist_percentiles(&req_all, pct_list, NPCT, req_pct);
	rps = (double)requests / cfg.runtime_s;
	waker_ns = wake_calls ? (double)wake_call_ns / (double)wake_calls : 0;

	fprintf(stdout,
		"wakelat: %u message threads, %u workers each, think %llu usec, round sleep %llu usec, warmup %g s\n",
		cfg.nmsg, cfg.nworkers, (unsigned long long)(cfg.think_ns / 1000),
		(unsigned long long)(cfg.round_sleep_ns / 1000), cfg.warmup_s);
	print_hist("Wakeup Latencies", &wake_all, wake_pct);
	print_hist("Request Latencies", &req_all, req_pct);
	printf("average rps: %.1f\n", rps);
	printf("waker: %.1f ns per FUTEX_WAKE (%llu wakeups)\n", waker_ns,
	       (unsigned long long)wake_calls);

	if (cfg.json)
		json_line(stdout,
			  "\"p50\":%.1f,\"p90\":%.1f,\"p99\":%.1f,\"p999\":%.1f,\"min\":%.1f,\"max\":%.1f,\"samples\":%llu,\"rps\":%.1f,\"req_p50\":%.1f,\"req_p99\":%.1f,\"waker_ns\":%.1f,\"message_threads\":%u,\"workers\":%u,\"think_us\":%llu,\"runtime_s\":%g",
			  ns_to_usf(wake_pct[0].ns), ns_to_usf(wake_pct[1].ns),
			  ns_to_usf(wake_pct[2].ns), ns_to_usf(wake_pct[3].ns),
			  ns_to_usf(wake_all.count ? wake_all.min : 0), ns_to_usf(wake_all.max),
			  (unsigned long long)wake_all.count, rps,
			  ns_to_usf(req_pct[0].ns), ns_to_usf(req_pct[2].ns), waker_ns,
			  cfg.nmsg, cfg.nworkers,
			  (unsigned long long)(cfg.think_ns / 1000), cfg.runtime_s);

	flush_stdout();
	free(hists);
	free(workers);
	free(msgs);
	return 0;
}
