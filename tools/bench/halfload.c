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
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PROG "halfload"

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
} __attribute__((aligned(64)));

static void die(const char *what)
{
	fprintf(stderr, PROG ": %s: %s\n", what, strerror(errno));
	exit(1);
}

static void die_err(const char *what, int err)
{
	fprintf(stderr, PROG ": %s: %s\n", what, strerror(err));
	exit(1);
}

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		die("clock_gettime");
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void on_alarm(int sig)
{
	static const char msg[] = PROG ": watchdog expired, run did not finish\n";

	(void)sig;
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0) {
		/* nothing more we can do */
	}
	_exit(1);
}

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
		uint64_t until = now_ns() + cfg.work_ns;

		while (now_ns() < until)
			;
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

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [-n PAIRS] [-u WORK_USEC] [-r SECONDS] [-j]\n"
		"  -n N   client/server pairs (default: online CPUs / 2, min 1)\n"
		"  -u U   server busy work per request, usec (default 50)\n"
		"  -r S   runtime in seconds (default 5)\n"
		"  -j     also print one JSON line at the end\n");
}

static void bad_arg(int opt, const char *arg)
{
	fprintf(stderr, PROG ": invalid value for -%c: '%s'\n", opt, arg);
	usage(stderr);
	exit(2);
}

static long parse_long(int opt, const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		bad_arg(opt, s);
	return v;
}

static double parse_double(int opt, const char *s, double min, double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= min && v <= max))
		bad_arg(opt, s);
	return v;
}

static unsigned int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	if (n >= 1)
		return (unsigned int)n;
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) >= 1)
		return (unsigned int)CPU_COUNT(&set);
	return 1;
}

int main(int argc, char **argv)
{
	struct pair *pairs;
	pthread_attr_t attr;
	struct sigaction sa;
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
			cfg.work_ns = 1000ULL * (uint64_t)parse_long(opt, optarg, 0, 10000000);
			break;
		case 'r':
			cfg.runtime_s = parse_double(opt, optarg, 0.001, 86400);
			break;
		case 'j':
			cfg.json = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, PROG ": unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	if (sigemptyset(&sa.sa_mask) || sigaction(SIGALRM, &sa, NULL))
		die("sigaction");
	alarm((unsigned int)(cfg.runtime_s + 60 + 2 * (double)cfg.work_ns / 1e9));

	pairs = aligned_alloc(64, sizeof(*pairs) * cfg.pairs);
	if (!pairs)
		die("aligned_alloc");
	memset(pairs, 0, sizeof(*pairs) * cfg.pairs);
	for (i = 0; i < cfg.pairs; i++)
		if (pipe(pairs[i].req) || pipe(pairs[i].resp))
			die("pipe");

	if ((err = pthread_attr_init(&attr)))
		die_err("pthread_attr_init", err);
	if ((err = pthread_attr_setstacksize(&attr, 256 * 1024)))
		die_err("pthread_attr_setstacksize", err);

	start = now_ns();
	cfg.end = start + (uint64_t)(cfg.runtime_s * 1e9);
	for (i = 0; i < cfg.pairs; i++) {
		if ((err = pthread_create(&pairs[i].server, &attr, server_fn, &pairs[i])))
			die_err("pthread_create(server)", err);
		if ((err = pthread_create(&pairs[i].client, &attr, client_fn, &pairs[i])))
			die_err("pthread_create(client)", err);
	}
	for (i = 0; i < cfg.pairs; i++) {
		if ((err = pthread_join(pairs[i].client, NULL)))
			die_err("pthread_join", err);
		if ((err = pthread_join(pairs[i].server, NULL)))
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

	/* The last transaction of a pair may end after the deadline: use the
	 * measured time, which is >= the requested runtime. */
	tps = (double)total / elapsed;
	printf("halfload: %u pairs (%u threads), work %llu usec/request, "
	       "runtime %g s (measured %.3f s)\n",
	       cfg.pairs, 2 * cfg.pairs, (unsigned long long)(cfg.work_ns / 1000),
	       cfg.runtime_s, elapsed);
	printf("transactions: %llu\n", (unsigned long long)total);
	printf("avg transaction usec: %.1f\n",
	       total ? elapsed * 1e6 * cfg.pairs / (double)total : 0.0);
	printf("tps: %.1f\n", tps);
	if (cfg.json)
		printf("{\"bench\":\"halfload\",\"tps\":%.1f,\"pairs\":%u,"
		       "\"transactions\":%llu,\"work_us\":%llu,\"runtime_s\":%.3f}\n",
		       tps, cfg.pairs, (unsigned long long)total,
		       (unsigned long long)(cfg.work_ns / 1000), elapsed);
	if (fflush(stdout) == EOF || ferror(stdout))
		die("write stdout");
	free(pairs);
	return 0;
}
