/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bench.h - helpers shared by the guest workload programs.
 *
 * Each program defines PROG (its name, used as the message prefix) before
 * including this header, and defines usage(FILE *) (declared here; printed
 * by the option-parsing helpers).  Everything is static inline so a program
 * that does not use a helper gets no "defined but not used" warning.
 *
 * The watchdog message is PROG ": watchdog expired, run did not finish\n"
 * unless the program defines BENCH_WATCHDOG_MSG first.
 */
#ifndef BENCH_H
#define BENCH_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef PROG
#error "define PROG before including bench.h"
#endif

#ifndef BENCH_WATCHDOG_MSG
#define BENCH_WATCHDOG_MSG PROG ": watchdog expired, run did not finish\n"
#endif

static void usage(FILE *f);

/* ---- errors ------------------------------------------------------------ */

static inline void die(const char *what)
{
	fprintf(stderr, PROG ": %s: %s\n", what, strerror(errno));
	exit(1);
}

static inline void die_err(const char *what, int err)
{
	fprintf(stderr, PROG ": %s: %s\n", what, strerror(err));
	exit(1);
}

/* ---- options ----------------------------------------------------------- */

static inline void bad_arg(int opt, const char *arg)
{
	fprintf(stderr, PROG ": invalid value for -%c: '%s'\n", opt, arg);
	usage(stderr);
	exit(2);
}

static inline long parse_long(int opt, const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		bad_arg(opt, s);
	return v;
}

/* For "v > 0" pass min = BENCH_DBL_POSITIVE (the smallest positive double). */
#define BENCH_DBL_POSITIVE 0x1p-1074

static inline double parse_double(int opt, const char *s, double min, double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= min && v <= max))
		bad_arg(opt, s);
	return v;
}

/* After getopt: any operand left is an error (usage, exit 2). */
static inline void no_operands(int argc, char **argv)
{
	if (optind != argc) {
		fprintf(stderr, PROG ": unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		exit(2);
	}
}

/* ---- time -------------------------------------------------------------- */

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		die("clock_gettime");
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Busy-wait until CLOCK_MONOTONIC reaches @deadline (ns). */
static inline void spin_until(uint64_t deadline)
{
	while (now_ns() < deadline)
		;
}

/* Relative CLOCK_MONOTONIC sleep, restarted with the remainder on EINTR. */
static inline void sleep_ns(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000ULL),
		.tv_nsec = (long)(ns % 1000000000ULL),
	};
	int err;

	while ((err = clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts)) == EINTR)
		;
	if (err)
		die_err("clock_nanosleep", err);
}

/* ---- system ------------------------------------------------------------ */

static inline unsigned int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	if (n >= 1)
		return (unsigned int)n;
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) >= 1)
		return (unsigned int)CPU_COUNT(&set);
	return 1;
}

/* pthread_attr_init + stack size; dies on error. */
static inline void thread_attr_init(pthread_attr_t *attr, size_t stack)
{
	int err;

	err = pthread_attr_init(attr);
	if (err)
		die_err("pthread_attr_init", err);
	err = pthread_attr_setstacksize(attr, stack);
	if (err)
		die_err("pthread_attr_setstacksize", err);
}

static inline void flush_stdout(void)
{
	if (fflush(stdout) == EOF || ferror(stdout))
		die("write stdout");
}

/* ---- watchdog ---------------------------------------------------------- */

/* Called from the SIGALRM handler before _exit(1): async-signal-safe only. */
static void (*watchdog_hook)(void);

static inline void on_alarm(int sig)
{
	static const char msg[] = BENCH_WATCHDOG_MSG;

	(void)sig;
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0) {
		/* nothing more we can do */
	}
	if (watchdog_hook)
		watchdog_hook();
	_exit(1);
}

/* Install the SIGALRM handler and alarm(@seconds). */
static inline void watchdog(unsigned int seconds)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	if (sigemptyset(&sa.sa_mask) || sigaction(SIGALRM, &sa, NULL))
		die("sigaction");
	alarm(seconds);
}

#endif /* BENCH_H */
