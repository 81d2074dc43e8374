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

int main(int argc, char **argv)
{
	struct pair *pairs;
	pthread_attr_t attr;
	uint64_t start, total = 0;
	unsigned int i;
	double elapsed, tps;
	int opt, err;

	cfg.pairs = online_cpus() / 2;
	if (cfg.pairs < 1)
		cfg.pairs = 1;

	while ((opt = getopt(argc, argv, "n:u:r:jh")) != -1) {
		switch (opt) {
		case 'n':
			cfg.pairs = (unsigned int)parse_long(opt, optarg, 1, 4096);
			break;
		case 'u':
			cfg.work_ns = parse_usec(opt, optarg, 0, 10000000);
			break;
		case 'r':
			cfg.runtime_s = parse_double(opt, optarg, 0.001, 86400);
			break;
		default:
			common_opt(opt, &cfg.json);
			break;
		}
	}
	no_operands(argc, argv);

	watchdog((unsigned int)(cfg.runtime_s + 60 + 2 * (double)cfg.work_ns / 1e9));

	pairs = aligned_alloc(64, sizeof(*pairs) * cfg.pairs);
	if (!pairs)
		die("aligned_alloc");
	memset(pairs, 0, sizeof(*pairs) * cfg.pairs);
	for (i = 0; i < cfg.pairs; i++)
		if (pipe(pairs[i].req) || pipe(pairs[i].resp))
			die("pipe");

	thread_attr_init(&attr, 256 * 1024);

	start = now_ns();
	cfg.end = start + (uint64_t)(cfg.runtime_s * 1e9);
	for (i = 0; i < cfg.pairs; i++) {
		err = pthread_create(&pairs[i].server, &attr, server_fn, &pairs[i]);
		if (err)
			die_err("pthread_create(server)", err);
		err = pthread_create(&pairs[i].client, &attr, client_fn, &pairs[i]);
		if (err)
			die_err("pthread_create(client)", err);
	}
	for (i = 0; i < cfg.pairs; i++) {
		err = pthread_join(pairs[i].client, NULL);
		if (err)
			die_err("pthread_join", err);
		err = pthread_join(pairs[i].server, NULL);
		if (err)
			die_err("pthread_join", err);
		total += pairs[i].transactions;
	}
	elapsed = (double)(now_ns() - start) / 1e9;
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
		fprintf(stdout,
			"{\"bench\":\"halfload\",\"tps\":%.1f,\"pairs\":%u,\"transactions\":%llu,\"work_us\":%llu,\"runtime_s\":%.3f}\n",
			tps, cfg.pairs, (unsigned long long)total,
			(unsigned long long)(cfg.work_ns / 1000), elapsed);
	flush_stdout();
	free(pairs);
	return 0;
}
