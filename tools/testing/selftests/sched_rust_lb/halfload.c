// SPDX-License-Identifier: GPL-2.0-only
/*
 * halfload - request/response load on about half the CPUs.
 *
 * The pattern of the 2014 root-domain overload-indicator work: a server is
 * busy on about half the CPUs, so no CPU has more than one runnable task and
 * balancing before going idle only costs time.
 *
 * N pairs (default: online CPUs / 2, at least 1).  Each pair is a client
 * thread and a server thread joined by two pipes.  A transaction:
 *   client: write 1 byte to the request pipe, block reading the response
 *   server: block reading the request, busy-spin -u usec ("work"), write
 *           1 byte to the response pipe
 * Only one thread of a pair is runnable at a time, so the load is N
 * runnable tasks that keep sleeping and waking.  Each client stops at the
 * end of the run (-r s), sends a quit byte and both threads exit.
 *
 * TPS = transactions completed by all pairs / runtime.
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

#define PROG "halfload"
#include "bench.h"

static struct {
	unsigned int pairs;
	uint64_t work_ns;
	double runtime_s;
	bool json;
	uint64_t end;		/* ns, CLOCK_MONOTONIC */
} cfg = {
	.work_ns = 50 * 1000ULL,
	.runtime_s = 5,
};

struct pair {
	int req[2];
	int resp[2];
	uint64_t transactions;
	pthread_t client, server;
} __aligned(64);

static void put(int fd, char c)
{
	for (;;) {
		ssize_t n = write(fd, &c, 1);

		if (n == 1)
			return;
		if (n < 0 && errno == EINTR)
			continue;
		die("write");
	}
}

static char get(int fd)
{
	char c;

	for (;;) {
		ssize_t n = read(fd, &c, 1);

		if (n == 1)
			return c;
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0) {
			fprintf(stderr, PROG ": unexpected EOF\n");
			exit(1);
		}
		die("read");
	}
}

static void *server_fn(void *arg)
{
	struct pair *p = arg;

	while (get(p->req[0]) == 'r') {
		spin_until(now_ns() + cfg.work_ns);
		put(p->resp[1], 'a');
	}
	return NULL;
}

static void *client_fn(void *arg)
{
	struct pair *p = arg;
	uint64_t n = 0;

	while (now_ns() < cfg.end) {
		put(p->req[1], 'r');
		if (get(p->resp[0]) != 'a') {
			fprintf(stderr, PROG ": protocol error\n");
			exit(1);
		}
		n++;
	}
	put(p->req[1], 'q');
	p->transactions = n;
	return NULL;
}

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [-n PAIRS] [-u WORK_USEC] [-r SECONDS] [-j]\n"
		"  -n N   client/server pairs (default: online CPUs / 2, min 1)\n"
		"  -u U   server busy work per request, usec (default 50)\n"
		"  -r S   runtime in seconds (default 5)\n"
		"  -j     also print one JSON line at the end\n");
}

static const struct bench_opt opts[] = {
	{ OPT_UINT('n', &cfg.pairs, 1, 4096) },
	{ OPT_USEC('u', &cfg.work_ns, 0, 10000000) },
	{ OPT_SECONDS('r', &cfg.runtime_s, 0.001, 86400) },
	{ OPT_FLAG('j', &cfg.json) },
};

int main(int argc, char **argv)
{
	struct pair *pairs;
	pthread_attr_t attr;
	uint64_t start, total = 0;
	unsigned int i;
	double elapsed, tps;

	cfg.pairs = online_cpus() / 2;
	if (cfg.pairs < 1)
		cfg.pairs = 1;
	parse_options(argc, argv, opts, ARRAY_SIZE(opts));
	no_operands(argc, argv);

	watchdog((unsigned int)(cfg.runtime_s + 60 + 2 * (double)cfg.work_ns / 1e9));

	pairs = zalloc_aligned(cfg.pairs, sizeof(*pairs), "aligned_alloc");
	for (i = 0; i < cfg.pairs; i++)
		if (pipe(pairs[i].req) || pipe(pairs[i].resp))
			die("pipe");

	thread_attr_init(&attr, 256 * 1024);

	start = now_ns();
	cfg.end = start + s_to_ns(cfg.runtime_s);
	for (i = 0; i < cfg.pairs; i++) {
		thread_start(&pairs[i].server, &attr, server_fn, &pairs[i],
			     "pthread_create(server)");
		thread_start(&pairs[i].client, &attr, client_fn, &pairs[i],
			     "pthread_create(client)");
	}
	for (i = 0; i < cfg.pairs; i++) {
		thread_join(pairs[i].client);
		thread_join(pairs[i].server);
		total += pairs[i].transactions;
	}
	elapsed = ns_to_s(now_ns() - start);
	alarm(0);
	pthread_attr_destroy(&attr);
	for (i = 0; i < cfg.pairs; i++)
		if (close(pairs[i].req[0]) || close(pairs[i].req[1]) ||
		    close(pairs[i].resp[0]) || close(pairs[i].resp[1]))
			die("close");

	/*
	 * The last transaction of a pair may end after the deadline: use the
	 * measured time, which is >= the requested runtime.
	 */
	tps = (double)total / elapsed;
	fprintf(stdout,
		"halfload: %u pairs (%u threads), work %llu usec/request, runtime %g s (measured %.3f s)\n",
		cfg.pairs, 2 * cfg.pairs, (unsigned long long)(cfg.work_ns / 1000),
		cfg.runtime_s, elapsed);
	printf("transactions: %llu\n", (unsigned long long)total);
	printf("avg transaction usec: %.1f\n",
	       total ? elapsed * 1e6 * cfg.pairs / (double)total : 0.0);
	printf("tps: %.1f\n", tps);
	if (cfg.json)
		json_line(stdout,
			  "\"tps\":%.1f,\"pairs\":%u,\"transactions\":%llu,\"work_us\":%llu,\"runtime_s\":%.3f",
			  tps, cfg.pairs, (unsigned long long)total,
			  (unsigned long long)(cfg.work_ns / 1000), elapsed);
	flush_stdout();
	free(pairs);
	return 0;
}
