/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bench.h - helpers shared by the guest workload programs.
 *
 * Each program defines PROG (its name, used as the message prefix) before
 * including this header, and defines print_usage(FILE *) (declared here;
 * printed by the option-parsing helpers).  Everything is static inline so a
 * program that does not use a helper gets no "defined but not used" warning.
 *
 * The shape of a workload's main(): a table of its options for
 * parse_options(), a watchdog(), its threads started with thread_start()
 * and reaped with thread_join(), then its text lines and, with -j, one
 * json_line().
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
#include <float.h>
#include <getopt.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef PROG
#error "define PROG before including bench.h"
#endif

#ifndef BENCH_WATCHDOG_MSG
#define BENCH_WATCHDOG_MSG PROG ": watchdog expired, run did not finish\n"
#endif

/* Userspace has no <linux/compiler.h>: the kernel's names for these. */
#ifndef __aligned
#define __aligned(x) __attribute__\
((aligned(x)))
#endif

#ifndef __printf
#define __printf(a, b) __attribute__\
((format(printf, a, b)))
#endif

#ifndef __noreturn
#define __noreturn __attribute__\
((noreturn))
#endif

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#ifndef BIT
#define BIT(nr) (1UL << (nr))
#endif

static void print_usage(FILE *f);

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

/* PROG ": <message>", the usage on stderr, exit 2. */
static inline void __printf(1, 2) __noreturn
usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	print_usage(stderr);
	exit(2);
}

static inline void __noreturn bad_arg(int opt, const char *arg)
{
	usage_error("invalid value for -%c: '%s'", opt, arg);
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
#define BENCH_DBL_POSITIVE DBL_TRUE_MIN	/* 0x1p-1074 */

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

/* A microseconds option (min..max us), in nanoseconds. */
static inline uint64_t parse_usec(int opt, const char *s, long min, long max)
{
	return 1000ULL * (uint64_t)parse_long(opt, s, min, max);
}

/*
 * A workload's options, one row each, in getopt order:
 *
 *	static const struct bench_opt opts[] = {
 *		{ OPT_UINT('n', &cfg.threads, 1, 4096) },
 *		{ OPT_SECONDS('r', &cfg.runtime_s, 0.001, 86400) },
 *		{ OPT_FLAG('j', &cfg.json) },
 *	};
 *
 * A row may add a long name (getopt_long), e.g.
 * { OPT_FLAG('j', &cfg.json), .name = "json" }.  -h is always accepted:
 * the usage on stdout, exit 0 (list { OPT_HELP, .name = "help" } only to
 * give it a long name).  min and max bound the value as given (usec for
 * OPT_USEC); an integer option's bounds are whole numbers.
 */
enum bench_opt_kind {
	OPT_KIND_FLAG,		/* bool, set to true */
	OPT_KIND_UINT,		/* unsigned int */
	OPT_KIND_U64,		/* uint64_t, the integer as given */
	OPT_KIND_USEC,		/* uint64_t: given in usec, stored in ns */
	OPT_KIND_SECONDS,	/* double, decimals allowed */
	OPT_KIND_HELP,		/* -h */
};

struct bench_opt {
	int opt;			/* the option letter */
	enum bench_opt_kind kind;
	union {				/* where the value goes */
		bool *flag;
		unsigned int *uint;
		uint64_t *u64;
		double *dbl;
	};
	double min, max;
	const char *name;		/* long option name, or NULL */
};

#define OPT_FLAG(c, p)		.opt = (c), .kind = OPT_KIND_FLAG, .flag = (p)
#define OPT_UINT(c, p, lo, hi)	.opt = (c), .kind = OPT_KIND_UINT, .uint = (p), \
				.min = (lo), .max = (hi)
#define OPT_U64(c, p, lo, hi)	.opt = (c), .kind = OPT_KIND_U64, .u64 = (p), \
				.min = (lo), .max = (hi)
#define OPT_USEC(c, p, lo, hi)	.opt = (c), .kind = OPT_KIND_USEC, .u64 = (p), \
				.min = (lo), .max = (hi)
#define OPT_SECONDS(c, p, lo, hi) .opt = (c), .kind = OPT_KIND_SECONDS, .dbl = (p), \
				.min = (lo), .max = (hi)
#define OPT_HELP		.opt = 'h', .kind = OPT_KIND_HELP

static inline void set_option(const struct bench_opt *o, const char *arg)
{
	switch (o->kind) {
	case OPT_KIND_FLAG:
		*o->flag = true;
		break;
	case OPT_KIND_UINT:
		*o->uint = (unsigned int)parse_long(o->opt, arg, (long)o->min, (long)o->max);
		break;
	case OPT_KIND_U64:
		*o->u64 = (uint64_t)parse_long(o->opt, arg, (long)o->min, (long)o->max);
		break;
	case OPT_KIND_USEC:
		*o->u64 = parse_usec(o->opt, arg, (long)o->min, (long)o->max);
		break;
	case OPT_KIND_SECONDS:
		*o->dbl = parse_double(o->opt, arg, o->min, o->max);
		break;
	case OPT_KIND_HELP:
		break;
	}
}

/*
 * getopt (getopt_long if a row has a long name) over @opts: stores every
 * value; -h prints the usage on stdout and exits 0; an unknown option, a
 * missing or bad value prints the usage on stderr and exits 2.  Operands
 * are left to the caller (no_operands()).
 */
static inline void parse_options(int argc, char **argv,
				 const struct bench_opt *opts, size_t n)
{
	char optstring[2 * n + 2], *s = optstring;
	struct option longopts[n + 1];
	size_t i, nlong = 0;
	bool have_h = false;
	int c;

	for (i = 0; i < n; i++) {
		const struct bench_opt *o = &opts[i];
		bool arg = o->kind != OPT_KIND_FLAG && o->kind != OPT_KIND_HELP;

		*s++ = (char)o->opt;
		if (arg)
			*s++ = ':';
		have_h |= o->opt == 'h';
		if (o->name)
			longopts[nlong++] = (struct option){
				o->name, arg ? required_argument : no_argument, NULL, o->opt,
			};
	}
	if (!have_h)
		*s++ = 'h';
	*s = '\0';
	longopts[nlong] = (struct option){ NULL, 0, NULL, 0 };

	while ((c = nlong ? getopt_long(argc, argv, optstring, longopts, NULL) :
			    getopt(argc, argv, optstring)) != -1) {
		for (i = 0; i < n && opts[i].opt != c; i++)
			;
		if (i == n || opts[i].kind == OPT_KIND_HELP) {
			/* -h, or getopt has reported a bad option ('?') */
			print_usage(c == 'h' ? stdout : stderr);
			exit(c == 'h' ? 0 : 2);
		}
		set_option(&opts[i], optarg);
	}
}

/* After parse_options(): any operand left is an error (usage, exit 2). */
static inline void no_operands(int argc, char **argv)
{
	if (optind != argc)
		usage_error("unexpected argument '%s'", argv[optind]);
}

/* ---- time -------------------------------------------------------------- */

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		die("clock_gettime");
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Seconds to nanoseconds (truncated), and back. */
static inline uint64_t s_to_ns(double s)
{
	return (uint64_t)(s * 1e9);
}

static inline double ns_to_s(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* Nanoseconds to microseconds: rounded to an integer, or exact. */
static inline unsigned long long ns_to_us(uint64_t ns)
{
	return (unsigned long long)((ns + 500) / 1000);
}

static inline double ns_to_usf(uint64_t ns)
{
	return (double)ns / 1000.0;
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

/* ---- futex ------------------------------------------------------------- */

/* FUTEX_WAIT while *@addr == @val; returns on a wakeup, EAGAIN or EINTR. */
static inline void futex_wait(uint32_t *addr, uint32_t val)
{
	if (syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val,
		    NULL, NULL, 0) == -1 && errno != EAGAIN && errno != EINTR)
		die("futex(FUTEX_WAIT)");
}

/* FUTEX_WAKE up to @nr waiters of @addr. */
static inline void futex_wake(uint32_t *addr, int nr)
{
	if (syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, nr,
		    NULL, NULL, 0) == -1)
		die("futex(FUTEX_WAKE)");
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

/* pthread_create; on error dies with "@what: strerror". */
static inline void thread_start(pthread_t *tid, const pthread_attr_t *attr,
				void *(*fn)(void *), void *arg, const char *what)
{
	int err = pthread_create(tid, attr, fn, arg);

	if (err)
		die_err(what, err);
}

/* pthread_join, result ignored; dies on error. */
static inline void thread_join(pthread_t tid)
{
	int err = pthread_join(tid, NULL);

	if (err)
		die_err("pthread_join", err);
}

/* @n zeroed @size-byte elements, cache-line aligned; dies with "@what: ...". */
static inline void *zalloc_aligned(size_t n, size_t size, const char *what)
{
	void *p = aligned_alloc(64, size * n);

	if (!p)
		die(what);
	memset(p, 0, size * n);
	return p;
}

static inline void flush_stdout(void)
{
	if (fflush(stdout) == EOF || ferror(stdout))
		die("write stdout");
}

/* ---- JSON -------------------------------------------------------------- */

/*
 * The -j line begins {"bench":"PROG" so that it can be grepped out of a
 * serial-console log.
 */
#define JSON_BEGIN "{\"bench\":\"" PROG "\""

/* One JSON line on @f: JSON_BEGIN "," <@fmt ...> "}\n". */
static inline void __printf(2, 3)
json_line(FILE *f, const char *fmt, ...)
{
	va_list ap;

	fputs(JSON_BEGIN ",", f);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputs("}\n", f);
}

/* ---- watchdog ---------------------------------------------------------- */

/* Called from the SIGALRM handler before _exit(1): async-signal-safe only. */
static void (*watchdog_hook)(void);

static inline void on_alarm(int sig)
{
	static const char msg[] = BENCH_WATCHDOG_MSG;
	ssize_t ret;

	(void)sig;
	ret = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)ret;	/* nothing more we can do on failure */
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

/* ---- latency histogram ------------------------------------------------- */

/*
 * Log2-linear, in nanoseconds: values below 128 ns have their own bucket,
 * each power of two above is split into 128 linear buckets (relative error
 * <= 1/128 = 0.78 %), up to 2^36 ns (68.7 s; larger values land in the last
 * bucket, max stays exact).  A percentile is the top of the bucket that
 * holds it, clamped to the observed [min, max].
 */
#define HIST_SUB_BITS	7
#define HIST_SUB_COUNT	((unsigned int)BIT(HIST_SUB_BITS))
#define HIST_TOP_BITS	36
#define HIST_MAX_NS	((1ULL << HIST_TOP_BITS) - 1)
#define HIST_BUCKETS	((HIST_TOP_BITS - HIST_SUB_BITS + 1) * HIST_SUB_COUNT)

struct hist {
	uint64_t count;
	uint64_t min;
	uint64_t max;
	uint64_t b[HIST_BUCKETS];
};

static inline unsigned int hist_bucket(uint64_t ns)
{
	unsigned int msb;

	if (ns > HIST_MAX_NS)
		ns = HIST_MAX_NS;
	if (ns < HIST_SUB_COUNT)
		return (unsigned int)ns;
	msb = 63 - (unsigned int)__builtin_clzll(ns);	/* HIST_SUB_BITS.. */
	return (msb - HIST_SUB_BITS + 1) * HIST_SUB_COUNT +
	       (unsigned int)((ns >> (msb - HIST_SUB_BITS)) & (HIST_SUB_COUNT - 1));
}

/* Largest value (ns) that falls in bucket @idx. */
static inline uint64_t hist_bucket_top(unsigned int idx)
{
	unsigned int shift;
	uint64_t base;

	if (idx < HIST_SUB_COUNT)
		return idx;
	shift = idx / HIST_SUB_COUNT - 1;
	base = (uint64_t)(HIST_SUB_COUNT + idx % HIST_SUB_COUNT) << shift;
	return base + ((uint64_t)1 << shift) - 1;
}

static inline void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

static inline void hist_add(struct hist *h, uint64_t ns)
{
	h->b[hist_bucket(ns)]++;
	h->count++;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
}

static inline void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned int i;

	for (i = 0; i < HIST_BUCKETS; i++)
		dst->b[i] += src->b[i];
	dst->count += src->count;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

struct hist_pct {
	double p;		/* percentile, e.g. 99.0 */
	uint64_t ns;		/* top of its bucket, clamped to [min, max] */
	uint64_t samples;	/* samples since the previous percentile */
};

/* The @n percentiles @p (ascending) of @h into @out. */
static inline void hist_percentiles(const struct hist *h, const double *p, unsigned int n,
				    struct hist_pct *out)
{
	uint64_t cum = 0, prev = 0;
	unsigned int i = 0, k;

	for (k = 0; k < n; k++) {
		uint64_t target, v;

		out[k].p = p[k];
		out[k].ns = 0;
		out[k].samples = 0;
		if (!h->count)
			continue;
		/* smallest bucket holding at least p% of the samples */
		target = (uint64_t)((p[k] / 100.0) * (double)h->count + 0.999999);
		if (target < 1)
			target = 1;
		if (target > h->count)
			target = h->count;
		while (cum < target && i < HIST_BUCKETS)
			cum += h->b[i++];
		v = hist_bucket_top(i - 1);
		if (v > h->max)
			v = h->max;
		if (v < h->min)
			v = h->min;
		out[k].ns = v;
		out[k].samples = cum - prev;
		prev = cum;
	}
}

#endif /* BENCH_H */
