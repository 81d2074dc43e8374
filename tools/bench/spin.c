// SPDX-License-Identifier: GPL-2.0-only
/*
 * spin - burn CPU in N threads for R seconds (creates overload).
 *
 *   spin -r SECONDS [-n THREADS]
 *
 * Each thread runs a short arithmetic loop between CLOCK_MONOTONIC reads
 * until the deadline; prints nothing on success.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PROG "spin"

static uint64_t deadline;

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
	static const char msg[] = PROG ": watchdog expired\n";

	(void)sig;
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0) {
		/* nothing more we can do */
	}
	_exit(1);
}

static void *spin_fn(void *arg)
{
	volatile uint64_t x = (uintptr_t)arg;

	while (now_ns() < deadline) {
		unsigned int i;

		for (i = 0; i < 1000; i++)
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	}
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " -r SECONDS [-n THREADS]\n"
		"  -r S   run for S seconds (required)\n"
		"  -n N   spinning threads (default 1)\n");
}

int main(int argc, char **argv)
{
	pthread_t *tids;
	pthread_attr_t attr;
	struct sigaction sa;
	double runtime = -1;
	long n = 1;
	unsigned int i;
	char *end;
	int opt, err;

	while ((opt = getopt(argc, argv, "r:n:h")) != -1) {
		switch (opt) {
		case 'r':
			errno = 0;
			runtime = strtod(optarg, &end);
			if (errno || end == optarg || *end ||
			    !(runtime > 0 && runtime <= 86400))
				goto bad;
			break;
		case 'n':
			errno = 0;
			n = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || n < 1 || n > 4096)
				goto bad;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc || runtime < 0) {
		fprintf(stderr, PROG ": %s\n", optind != argc ?
			"unexpected argument" : "-r SECONDS is required");
		usage(stderr);
		return 2;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	if (sigemptyset(&sa.sa_mask) || sigaction(SIGALRM, &sa, NULL))
		die("sigaction");
	alarm((unsigned int)runtime + 60);

	tids = calloc((size_t)n, sizeof(*tids));
	if (!tids)
		die("calloc");
	if ((err = pthread_attr_init(&attr)))
		die_err("pthread_attr_init", err);
	if ((err = pthread_attr_setstacksize(&attr, 64 * 1024)))
		die_err("pthread_attr_setstacksize", err);
	deadline = now_ns() + (uint64_t)(runtime * 1e9);
	for (i = 0; i < (unsigned int)n; i++)
		if ((err = pthread_create(&tids[i], &attr, spin_fn,
					  (void *)(uintptr_t)(i + 1))))
			die_err("pthread_create", err);
	for (i = 0; i < (unsigned int)n; i++)
		if ((err = pthread_join(tids[i], NULL)))
			die_err("pthread_join", err);
	pthread_attr_destroy(&attr);
	free(tids);
	return 0;

bad:
	fprintf(stderr, PROG ": invalid value for -%c: '%s'\n", opt, optarg);
	usage(stderr);
	return 2;
}
