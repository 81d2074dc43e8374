// SPDX-License-Identifier: GPL-2.0-only
/*
 * schbench - wakeup-latency workload, command-line compatible with the
 * pre-v1.0 (2016-2022) schbench of Chris Mason (own code, same method).
 *
 * Threads
 *   M message threads (-m); each owns T worker threads (-t).  Every thread
 *   has a futex word that is BLOCKED (0) or RUNNING (1):
 *     post(f):  CAS BLOCKED->RUNNING, and if that worked FUTEX_WAKE(f, 1)
 *     wait(f):  until CAS RUNNING->BLOCKED works, FUTEX_WAIT(f, BLOCKED)
 *
 * Worker loop
 *   1. think: busy-spin -c usec of wall time (clock reads in a loop)
 *   2. set its own word BLOCKED, push itself on its message thread's
 *      lock-free list of waiting workers, post the message thread's word
 *   3. wait on its own word
 *   4. latency = now - wake_ns, where wake_ns is the timestamp the message
 *      thread stored in the worker just before posting it; record it in the
 *      worker's own histogram, go to 1
 *
 * Message thread loop
 *   1. set its own word BLOCKED
 *   2. take the whole waiting list (atomic exchange with NULL), read the
 *      clock ONCE, store that time in every worker of the batch and post
 *      each of them.  Workers still thinking are not on the list and are
 *      not waited for: there is no round barrier.
 *   3. if -s is not 0: wait on its own word, i.e. until at least one worker
 *      has posted itself since step 1 (returns at once if one already did)
 *   4. busy-spin -C usec (0 by default)
 *   5. if -s is not 0: sleep -s usec plus a random jitter in
 *      [0, -s/4) usec (as schbench does), go to 1
 *   With -s 0 the message thread never sleeps or waits: it loops on 1-2.
 *
 * Run time line (like schbench, -r counts the warmup)
 *   0 .. -w       warmup: samples are dropped when the warmup ends
 *                 (skipped when -w is 0 or not shorter than -r)
 *   every -z s    after the warmup, the stats are zeroed again (-z 0: never)
 *   every -i s    intermediate percentiles on stderr (-i 0: none)
 *   -r            stop (-r 0: run until SIGINT or SIGTERM)
 *   SIGINT/SIGTERM stop early; the results are printed as usual.
 *
 * Zeroing is race free: main bumps a global epoch; a worker that sees a
 * new epoch clears its own histogram before its next sample, and only
 * histograms of the current epoch are merged.
 *
 * Histograms
 *   Per worker, bench.h's log2-linear histogram in nanoseconds (128
 *   buckets per power of two, up to 2^36 ns), kept with relaxed atomics
 *   (struct whist) so that main can merge it while the worker runs.  A
 *   percentile is the top of its bucket, clamped to the observed [min,
 *   max].
 *
 * Output
 *   stdout: schbench's final percentile block (usec, integers).  With -j,
 *   one JSON line follows: p50 p75 p90 p95 p99 p99_5 p99_9 min max (usec),
 *   samples, rps = samples / measured_s, where measured_s runs from the
 *   last zeroing (end of warmup or -z; else the start) to the stop, and
 *   hist = [[bucket upper bound in usec (exclusive), count], ...] for the
 *   non-empty buckets.  stderr: "warmup done" and the -i reports.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PROG "schbench"
#include "bench.h"

#define NSEC_PER_SEC	1000000000ULL
#define NSEC_PER_USEC	1000ULL
#define MAX_USEC	3600000000L		/* 1 hour for -s, -c, -C */
#define MAX_SECONDS	604800.0		/* 1 week for -r, -w, -i, -z */
#define MAX_WORKERS	16384

/* ---- histogram --------------------------------------------------------- */

/*
 * Written only by its worker; main may read it concurrently for the
 * intermediate reports, hence relaxed atomics (plain moves on x86/arm64).
 */
struct whist {
	uint64_t count;
	uint64_t min;
	uint64_t max;
	uint64_t b[HIST_BUCKETS];
};

/* Merged copies (owned by main) are bench.h's struct hist. */

#define RLX __ATOMIC_RELAXED

static void whist_clear(struct whist *h)
{
	unsigned int i;

	/* only write non-zero buckets: untouched pages stay unallocated */
	for (i = 0; i < HIST_BUCKETS; i++)
		if (__atomic_load_n(&h->b[i], RLX))
			__atomic_store_n(&h->b[i], 0, RLX);
	__atomic_store_n(&h->count, 0, RLX);
	__atomic_store_n(&h->min, UINT64_MAX, RLX);
	__atomic_store_n(&h->max, 0, RLX);
}

/* Single writer: load + store, no locked instructions. */
static inline void whist_add(struct whist *h, uint64_t ns)
{
	uint64_t *b = &h->b[hist_bucket(ns)];

	__atomic_store_n(b, __atomic_load_n(b, RLX) + 1, RLX);
	__atomic_store_n(&h->count, __atomic_load_n(&h->count, RLX) + 1, RLX);
	if (ns < __atomic_load_n(&h->min, RLX))
		__atomic_store_n(&h->min, ns, RLX);
	if (ns > __atomic_load_n(&h->max, RLX))
		__atomic_store_n(&h->max, ns, RLX);
}

static void whist_merge(struct hist *dst, const struct whist *src)
{
	uint64_t v;
	unsigned int i;

	for (i = 0; i < HIST_BUCKETS; i++)
		dst->b[i] += __atomic_load_n(&src->b[i], RLX);
	dst->count += __atomic_load_n(&src->count, RLX);
	v = __atomic_load_n(&src->min, RLX);
	if (v < dst->min)
		dst->min = v;
	v = __atomic_load_n(&src->max, RLX);
	if (v > dst->max)
		dst->max = v;
}

static const double pct_list[] = { 50.0, 75.0, 90.0, 95.0, 99.0, 99.5, 99.9 };
#define NPCT		ARRAY_SIZE(pct_list)
#define PCT_P99		4		/* starred in the text output */

/* ---- futex words (futex_wait/futex_wake are bench.h's) ----------------- */

enum { F_BLOCKED = 0, F_RUNNING = 1 };

/* Wake the owner of @f if it is (about to be) waiting; no-op otherwise. */
static void fpost(uint32_t *f)
{
	uint32_t old = F_BLOCKED;

	if (__atomic_compare_exchange_n(f, &old, F_RUNNING, false,
					__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		futex_wake(f, 1);
}

/* Return once @f has been posted, consuming the post. */
static void fwait(uint32_t *f)
{
	for (;;) {
		uint32_t old = F_RUNNING;

		if (__atomic_compare_exchange_n(f, &old, F_BLOCKED, false,
						__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			return;
		futex_wait(f, F_BLOCKED);
	}
}

/* ---- benchmark --------------------------------------------------------- */

struct msg_thread;

struct worker {
	uint32_t futex;
	uint64_t wake_ns;		/* batch time, set by the message thread */
	struct worker *next;		/* link in the message thread's list */
	struct msg_thread *m;
	struct whist *hist;
	uint32_t my_epoch;		/* private copy of ->epoch */
	uint32_t epoch;			/* epoch of the data in ->hist */
	pthread_t tid;
} __aligned(64);

struct msg_thread {
	uint32_t futex;
	struct worker *waiting;		/* workers waiting for a wakeup */
	unsigned int seed;
	pthread_t tid;
} __aligned(64);

static struct {
	unsigned int nmsg;
	unsigned int nworkers;
	double runtime_s;
	uint64_t sleep_us;
	uint64_t think_us;
	uint64_t msg_think_us;
	double warmup_s;
	double interval_s;
	double zero_s;
	bool json;
} cfg = {
	.nmsg = 2,
	.nworkers = 16,
	.runtime_s = 30,
	.sleep_us = 10000,
	.think_us = 10000,
	.msg_think_us = 0,
	.warmup_s = 5,
	.interval_s = 10,
	.zero_s = 0,
};

static int stopping;
static uint32_t epoch;

static inline bool is_stopping(void)
{
	return __atomic_load_n(&stopping, __ATOMIC_SEQ_CST);
}

/* Busy-spin @ns of wall time; cut short on shutdown (nothing is measured). */
static void think(uint64_t ns)
{
	uint64_t end;

	if (!ns)
		return;
	end = now_ns() + ns;
	while (now_ns() < end)
		if (__atomic_load_n(&stopping, RLX))
			break;
}

/* Lock-free push; the whole list is only ever taken at once (no ABA). */
static void list_push(struct msg_thread *m, struct worker *w)
{
	struct worker *old = __atomic_load_n(&m->waiting, __ATOMIC_SEQ_CST);

	do {
		w->next = old;
	} while (!__atomic_compare_exchange_n(&m->waiting, &old, w, true,
					      __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
}

/* Post every waiting worker, all with one timestamp taken before the first. */
static void wake_waiting(struct msg_thread *m)
{
	struct worker *w = __atomic_exchange_n(&m->waiting, NULL, __ATOMIC_SEQ_CST);
	uint64_t t;

	if (!w)
		return;
	t = now_ns();
	while (w) {
		/* read ->next first: once posted, w may queue itself again */
		struct worker *next = w->next;

		__atomic_store_n(&w->wake_ns, t, RLX);
		fpost(&w->futex);
		w = next;
	}
}

static void record(struct worker *w, uint64_t ns)
{
	uint32_t e = __atomic_load_n(&epoch, __ATOMIC_ACQUIRE);

	if (e != w->my_epoch) {
		whist_clear(w->hist);
		w->my_epoch = e;
		__atomic_store_n(&w->epoch, e, __ATOMIC_RELEASE);
	}
	whist_add(w->hist, ns);
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	struct msg_thread *m = w->m;

	for (;;) {
		uint64_t t, posted;

		think(cfg.think_us * NSEC_PER_USEC);
		if (is_stopping())
			break;

		__atomic_store_n(&w->futex, F_BLOCKED, __ATOMIC_SEQ_CST);
		__atomic_store_n(&w->wake_ns, now_ns(), RLX);
		list_push(m, w);
		fpost(&m->futex);
		/*
		 * All control atomics are seq_cst: if we still see !stopping
		 * here, our push precedes the message thread's last sweep,
		 * which it does after it has seen stopping.
		 */
		if (!is_stopping())
			fwait(&w->futex);
		t = now_ns();
		if (is_stopping())
			break;
		posted = __atomic_load_n(&w->wake_ns, RLX);
		record(w, t > posted ? t - posted : 0);
	}
	return NULL;
}

static void *msg_fn(void *arg)
{
	struct msg_thread *m = arg;
	uint64_t max_jitter = cfg.sleep_us / 4;

	for (;;) {
		__atomic_store_n(&m->futex, F_BLOCKED, __ATOMIC_SEQ_CST);
		wake_waiting(m);
		if (is_stopping()) {
			wake_waiting(m);
			break;
		}
		if (cfg.sleep_us)
			fwait(&m->futex);
		think(cfg.msg_think_us * NSEC_PER_USEC);
		if (cfg.sleep_us) {
			uint64_t us = cfg.sleep_us;

			if (max_jitter)
				us += (uint64_t)rand_r(&m->seed) % max_jitter;
			sleep_ns(us * NSEC_PER_USEC);
		}
	}
	return NULL;
}

/* ---- reporting --------------------------------------------------------- */

/* Merge the histograms of the current epoch (workers may be running). */
static void collect(struct worker *workers, unsigned int n, struct hist *out)
{
	uint32_t e = __atomic_load_n(&epoch, __ATOMIC_SEQ_CST);
	unsigned int i;

	hist_init(out);
	for (i = 0; i < n; i++)
		if (__atomic_load_n(&workers[i].epoch, __ATOMIC_ACQUIRE) == e)
			whist_merge(out, workers[i].hist);
	if (!out->count)
		out->min = 0;
}

/* schbench's layout: header, 7 percentiles (99th starred), min/max. */
static void show_latencies(FILE *f, const struct hist *h, const struct hist_pct *p,
			   double runtime)
{
	unsigned int k;

	fprintf(f, "Latency percentiles (usec) runtime %g (s) (%llu total samples)\n",
		runtime, (unsigned long long)h->count);
	for (k = 0; k < NPCT; k++)
		fprintf(f, "\t%s%2.1fth: %llu (%llu samples)\n",
			k == PCT_P99 ? "*" : "", pct_list[k], ns_to_us(p[k].ns),
			(unsigned long long)p[k].samples);
	fprintf(f, "\tmin=%llu, max=%llu\n", ns_to_us(h->min), ns_to_us(h->max));
}

static void print_json(const struct hist *h, const struct hist_pct *p, double rps,
		       double measured_s, double elapsed_s, bool interrupted)
{
	const char *sep = "";
	unsigned int i, k;

	fputs(JSON_BEGIN, stdout);
	for (k = 0; k < NPCT; k++) {
		static const char *const key[NPCT] = {
			"p50", "p75", "p90", "p95", "p99", "p99_5", "p99_9",
		};

		printf(",\"%s\":%.1f", key[k], ns_to_usf(p[k].ns));
	}
	fprintf(stdout,
		",\"min\":%.1f,\"max\":%.1f,\"samples\":%llu,\"rps\":%.1f,\"measured_s\":%.3f,\"runtime_s\":%.3f,\"interrupted\":%s,\"message_threads\":%u,\"workers\":%u,\"sleep_us\":%llu,\"cputime_us\":%llu,\"warmup_s\":%g,\"hist\":[",
		ns_to_usf(h->min), ns_to_usf(h->max),
		(unsigned long long)h->count, rps, measured_s, elapsed_s,
		interrupted ? "true" : "false", cfg.nmsg, cfg.nworkers,
		(unsigned long long)cfg.sleep_us,
		(unsigned long long)cfg.think_us, cfg.warmup_s);
	for (i = 0; i < HIST_BUCKETS; i++) {
		if (!h->b[i])
			continue;
		/* exclusive upper bound of the bucket, in usec */
		printf("%s[%.3f,%llu]", sep, (double)(hist_bucket_top(i) + 1) / 1000.0,
		       (unsigned long long)h->b[i]);
		sep = ",";
	}
	printf("]}\n");
}

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [-m MSG_THREADS] [-t WORKERS] [-r SECONDS] [-s USEC] [-c USEC]\n"
		"                [-C USEC] [-w SECONDS] [-i SECONDS] [-z SECONDS] [-j] [-h]\n"
		"  -m N  (--message-threads) message threads (default 2)\n"
		"  -t N  (--threads)         worker threads per message thread (default 16)\n"
		"  -r S  (--runtime)         total run time in seconds, warmup included\n"
		"                            (default 30; 0 = until SIGINT/SIGTERM)\n"
		"  -s U  (--sleeptime)       message thread sleep between wakeup batches, usec,\n"
		"                            plus random jitter in [0, U/4) (default 10000;\n"
		"                            0 = no sleep, the message thread busy-loops)\n"
		"  -c U  (--cputime)         worker think time after each wakeup: busy-spin\n"
		"                            U usec of wall time (default 10000)\n"
		"  -C U  (--message_cputime) message thread busy-spin before each sleep, usec\n"
		"                            (default 0)\n"
		"  -w S  (--warmuptime)      zero the stats once, S seconds after the start\n"
		"                            (default 5; 0 or >= -r: no warmup)\n"
		"  -i S  (--intervaltime)    intermediate percentiles on stderr every S seconds\n"
		"                            (default 10; 0 = none)\n"
		"  -z S  (--zerotime)        zero the stats every S seconds (default 0 = never)\n"
		"  -j    (--json)            add one JSON line at the end of the output\n"
		"  -h    (--help)            this help\n"
		"Latency = time from the message thread's clock read (once per wakeup batch)\n"
		"to the worker's first clock read after its futex wait returns.\n"
		"SIGINT/SIGTERM end the run early; results are printed as usual.\n");
}

static const struct bench_opt opts[] = {
	{ OPT_UINT('m', &cfg.nmsg, 1, 1024),			.name = "message-threads" },
	{ OPT_UINT('t', &cfg.nworkers, 1, 4096),		.name = "threads" },
	{ OPT_SECONDS('r', &cfg.runtime_s, 0, MAX_SECONDS),	.name = "runtime" },
	{ OPT_U64('s', &cfg.sleep_us, 0, MAX_USEC),		.name = "sleeptime" },
	{ OPT_U64('c', &cfg.think_us, 0, MAX_USEC),		.name = "cputime" },
	{ OPT_U64('C', &cfg.msg_think_us, 0, MAX_USEC),		.name = "message_cputime" },
	{ OPT_SECONDS('w', &cfg.warmup_s, 0, MAX_SECONDS),	.name = "warmuptime" },
	{ OPT_SECONDS('i', &cfg.interval_s, 0, MAX_SECONDS),	.name = "intervaltime" },
	{ OPT_SECONDS('z', &cfg.zero_s, 0, MAX_SECONDS),	.name = "zerotime" },
	{ OPT_FLAG('j', &cfg.json),				.name = "json" },
	{ OPT_HELP,						.name = "help" },
};

/* Rounded to the nearest ns (bench.h's s_to_ns() truncates). */
static uint64_t s_to_ns_round(double s)
{
	return (uint64_t)(s * 1e9 + 0.5);
}

/* Longest a clean shutdown may take once stopping is set, plus slack. */
static unsigned int shutdown_budget_s(void)
{
	uint64_t us = 2 * (cfg.sleep_us + cfg.sleep_us / 4 + cfg.msg_think_us);

	return 60 + (unsigned int)(us / 1000000);
}

#define NO_DEADLINE UINT64_MAX

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

int main(int argc, char **argv)
{
	struct msg_thread *msgs;
	struct worker *workers;
	struct hist *sum;
	struct hist_pct pct[NPCT];
	pthread_attr_t attr;
	sigset_t sigs;
	uint64_t start, end, warmup_at, report_at, zero_at, window_start, stop_at;
	uint64_t interval_ns, zero_ns;
	unsigned int nthreads, i;
	bool interrupted = false;
	double measured_s, elapsed_s, rps;
	int err;

	parse_options(argc, argv, opts, ARRAY_SIZE(opts));
	no_operands(argc, argv);
	if ((uint64_t)cfg.nmsg * cfg.nworkers > MAX_WORKERS)
		usage_error("too many workers (%u x %u > %u)", cfg.nmsg, cfg.nworkers, MAX_WORKERS);
	nthreads = cfg.nmsg * cfg.nworkers;

	/* SIGINT/SIGTERM are taken by sigtimedwait() in main only. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	err = pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	if (err)
		die_err("pthread_sigmask", err);

	if (cfg.runtime_s > 0)
		watchdog((unsigned int)cfg.runtime_s + 1 + shutdown_budget_s());

	msgs = zalloc_aligned(cfg.nmsg, sizeof(*msgs), "malloc");
	workers = zalloc_aligned(nthreads, sizeof(*workers), "malloc");
	sum = malloc(sizeof(*sum));
	if (!sum)
		die("malloc");

	start = now_ns();
	for (i = 0; i < cfg.nmsg; i++) {
		msgs[i].futex = F_BLOCKED;
		msgs[i].waiting = NULL;
		msgs[i].seed = (unsigned int)(start ^ (start >> 32)) ^
			       (i + 1) * 2654435761u;
	}
	for (i = 0; i < nthreads; i++) {
		struct worker *w = &workers[i];

		w->m = &msgs[i / cfg.nworkers];
		/* calloc: bucket pages stay unallocated until used */
		w->hist = calloc(1, sizeof(*w->hist));
		if (!w->hist)
			die("calloc");
		whist_clear(w->hist);
		w->futex = F_BLOCKED;
		w->epoch = 0;
	}

	thread_attr_init(&attr, 256 * 1024);
	for (i = 0; i < cfg.nmsg; i++)
		thread_start(&msgs[i].tid, &attr, msg_fn, &msgs[i], "pthread_create(message)");
	for (i = 0; i < nthreads; i++)
		thread_start(&workers[i].tid, &attr, worker_fn, &workers[i],
			     "pthread_create(worker)");

	/* Timeline, all relative to start (as schbench: -r includes -w). */
	start = now_ns();
	window_start = start;
	end = cfg.runtime_s > 0 ? start + s_to_ns_round(cfg.runtime_s) : NO_DEADLINE;
	warmup_at = NO_DEADLINE;
	if (cfg.warmup_s > 0 && start + s_to_ns_round(cfg.warmup_s) < end)
		warmup_at = start + s_to_ns_round(cfg.warmup_s);
	interval_ns = s_to_ns_round(cfg.interval_s);
	zero_ns = s_to_ns_round(cfg.zero_s);
	report_at = interval_ns ? start + interval_ns : NO_DEADLINE;
	zero_at = zero_ns ? start + zero_ns : NO_DEADLINE;

	for (;;) {
		uint64_t t = now_ns(), next;
		int sig;

		if (t >= end)
			break;
		if (t >= warmup_at) {
			warmup_at = NO_DEADLINE;
			__atomic_fetch_add(&epoch, 1, __ATOMIC_SEQ_CST);
			window_start = t;
			if (zero_ns)
				zero_at = t + zero_ns;
			/* a report due now would show an empty histogram */
			if (report_at <= t)
				report_at = t + interval_ns;
			fprintf(stderr, "warmup done, zeroing stats\n");
		} else if (t >= report_at) {
			collect(workers, nthreads, sum);
			hist_percentiles(sum, pct_list, NPCT, pct);
			show_latencies(stderr, sum, pct,
				       (double)((t - start) / NSEC_PER_SEC));
			report_at = t + interval_ns;
		}
		if (t >= zero_at) {
			__atomic_fetch_add(&epoch, 1, __ATOMIC_SEQ_CST);
			window_start = t;
			zero_at = t + zero_ns;
		}

		next = min_u64(min_u64(end, warmup_at), min_u64(report_at, zero_at));
		if (next == NO_DEADLINE) {
			sig = sigwaitinfo(&sigs, NULL);
		} else if (next > t) {
			struct timespec ts = {
				.tv_sec = (time_t)((next - t) / NSEC_PER_SEC),
				.tv_nsec = (long)((next - t) % NSEC_PER_SEC),
			};

			sig = sigtimedwait(&sigs, NULL, &ts);
		} else {
			continue;
		}
		if (sig == SIGINT || sig == SIGTERM) {
			interrupted = true;
			break;
		}
		if (sig == -1 && errno != EAGAIN && errno != EINTR)
			die("sigtimedwait");
	}

	/* Shut down: no sample is recorded once stopping is set. */
	__atomic_store_n(&stopping, 1, __ATOMIC_SEQ_CST);
	stop_at = now_ns();
	watchdog(shutdown_budget_s());
	for (i = 0; i < cfg.nmsg; i++)
		fpost(&msgs[i].futex);
	for (i = 0; i < cfg.nmsg; i++)
		thread_join(msgs[i].tid);
	for (i = 0; i < nthreads; i++)
		fpost(&workers[i].futex);
	for (i = 0; i < nthreads; i++)
		thread_join(workers[i].tid);
	alarm(0);
	pthread_attr_destroy(&attr);

	collect(workers, nthreads, sum);
	hist_percentiles(sum, pct_list, NPCT, pct);
	measured_s = ns_to_s(stop_at - window_start);
	elapsed_s = ns_to_s(stop_at - start);
	rps = measured_s > 0 ? (double)sum->count / measured_s : 0;

	/* like schbench: the -r value; whole seconds run if cut short */
	show_latencies(stdout, sum, pct, interrupted || cfg.runtime_s <= 0 ?
		       (double)((stop_at - start) / NSEC_PER_SEC) : cfg.runtime_s);
	if (cfg.json)
		print_json(sum, pct, rps, measured_s, elapsed_s, interrupted);
	flush_stdout();

	for (i = 0; i < nthreads; i++)
		free(workers[i].hist);
	free(sum);
	free(workers);
	free(msgs);
	return 0;
}
