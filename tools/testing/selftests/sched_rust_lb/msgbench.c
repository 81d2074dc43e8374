// SPDX-License-Identifier: GPL-2.0-only
/*
 * msgbench - messaging benchmark (hackbench-style method, own code).
 *
 * G groups; each group has F receivers and F senders.  Every receiver owns
 * one channel (a pipe, or an AF_UNIX SOCK_STREAM socketpair with -s); all
 * F senders of the group hold its write end.  Each sender does L loops; in
 * every loop it writes one 100-byte message to each receiver of its group,
 * in order.  Each receiver reads until it has F * L * 100 bytes.
 *
 * Tasks are processes (fork, default) or threads (-T).  All tasks first
 * report "ready" (one byte on a shared pipe) and then block in poll() on a
 * shared wakeup pipe; the parent waits for every ready byte, reads
 * CLOCK_MONOTONIC, writes the wakeup byte and waits for (reaps / joins)
 * every task.  Time = end - start, printed in seconds like hackbench.
 *
 * A watchdog (-W, default 300 s) kills the run if it does not finish, so a
 * task that dies cannot leave the others blocked forever.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define PROG "msgbench"
#include "bench.h"
#define MSG_SIZE 100

static struct {
	unsigned int groups;
	unsigned int fds;
	unsigned int loops;
	bool threads;
	bool sockets;
	bool json;
	unsigned int timeout_s;
} cfg = {
	.groups = 4,
	.fds = 5,
	.loops = 200,
	.timeout_s = 300,
};

static int ready_pipe[2];	/* tasks -> parent: one byte each */
static int wakeup_pipe[2];	/* parent -> all tasks: start */

/* Children to kill from the watchdog (process mode). */
static pid_t *children;
/* Read by the watchdog handler: relaxed atomic accesses only. */
static sig_atomic_t nchildren;

/* Task failure: in a forked child only this process must go. */
static void task_fail(const char *what)
{
	fprintf(stderr, PROG ": %s: %s\n", what, strerror(errno));
	if (cfg.threads)
		exit(1);
	_exit(1);
}

static void kill_children(void)
{
	sig_atomic_t i;

	for (i = 0; i < __atomic_load_n(&nchildren, __ATOMIC_RELAXED); i++)
		if (children[i] > 0)
			kill(children[i], SIGKILL);	/* best effort */
}

static void write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			task_fail("write");
		}
		p += n;
		len -= (size_t)n;
	}
}

/* Tell the parent we are ready, then wait for the start signal. */
static void ready_and_wait(void)
{
	struct pollfd pfd = { .fd = wakeup_pipe[0], .events = POLLIN };

	write_all(ready_pipe[1], "R", 1);
	for (;;) {
		int r = poll(&pfd, 1, -1);

		if (r == 1) {
			if (!(pfd.revents & POLLIN)) {
				/* parent went away before the start signal */
				fprintf(stderr, PROG ": no start signal\n");
				if (cfg.threads)
					exit(1);
				_exit(1);
			}
			break;
		}
		if (r < 0 && errno != EINTR)
			task_fail("poll");
	}
}

struct sender_arg {
	const int *out;		/* F write ends of this group's receivers */
};

struct receiver_arg {
	int in;			/* read end */
};

static void sender(const struct sender_arg *a)
{
	char msg[MSG_SIZE];
	unsigned int i, j;

	memset(msg, 'm', sizeof(msg));
	ready_and_wait();
	for (i = 0; i < cfg.loops; i++)
		for (j = 0; j < cfg.fds; j++)
			write_all(a->out[j], msg, sizeof(msg));
}

static void receiver(const struct receiver_arg *a)
{
	uint64_t left = (uint64_t)cfg.fds * cfg.loops * MSG_SIZE;
	char buf[MSG_SIZE];

	ready_and_wait();
	while (left) {
		ssize_t n = read(a->in, buf, sizeof(buf));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			task_fail("read");
		}
		if (n == 0) {
			fprintf(stderr, PROG ": unexpected EOF on channel\n");
			if (cfg.threads)
				exit(1);
			_exit(1);
		}
		left -= (uint64_t)n;
	}
}

static void *sender_thread(void *arg)
{
	sender(arg);
	return NULL;
}

static void *receiver_thread(void *arg)
{
	receiver(arg);
	return NULL;
}

static void make_channel(int fd[2])
{
	if (cfg.sockets) {
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, fd))
			die("socketpair(AF_UNIX)");
	} else {
		if (pipe(fd))
			die("pipe");
	}
}

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [-g GROUPS] [-f FDS] [-l LOOPS] [-s] [-T] [-W SECONDS] [-j]\n"
		"  -g N   groups (default 4)\n"
		"  -f N   senders and receivers per group (default 5)\n"
		"  -l N   messages each sender sends to each receiver (default 200)\n"
		"  -s     AF_UNIX socketpairs instead of pipes\n"
		"  -T     threads instead of processes\n"
		"  -W S   watchdog: give up after S seconds (default 300)\n"
		"  -j     also print one JSON line at the end\n");
}

static const struct bench_opt opts[] = {
	{ OPT_UINT('g', &cfg.groups, 1, 10000) },
	{ OPT_UINT('f', &cfg.fds, 1, 1000) },
	{ OPT_UINT('l', &cfg.loops, 1, 100000000) },
	{ OPT_FLAG('s', &cfg.sockets) },
	{ OPT_FLAG('T', &cfg.threads) },
	{ OPT_UINT('W', &cfg.timeout_s, 1, 604800) },
	{ OPT_FLAG('j', &cfg.json) },
};

static void raise_nofile(uint64_t need)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		die("getrlimit(RLIMIT_NOFILE)");
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need) {
		rl.rlim_cur = rl.rlim_max;
		if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max > need)
			rl.rlim_cur = need;
		if (setrlimit(RLIMIT_NOFILE, &rl))
			fprintf(stderr, PROG ": warning: setrlimit(RLIMIT_NOFILE): %s\n",
				strerror(errno));
	}
}

int main(int argc, char **argv)
{
	uint64_t ntasks, start, end;
	int (*chan)[2];		/* per group (process) or all groups (thread) */
	int *outs;		/* write ends, laid out per group */
	struct sender_arg *sargs = NULL;
	struct receiver_arg *rargs = NULL;
	pthread_t *tids = NULL;
	pthread_attr_t attr;
	unsigned int g, i;
	uint64_t t = 0, nready;
	char c;

	parse_options(argc, argv, opts, ARRAY_SIZE(opts));
	no_operands(argc, argv);
	ntasks = (uint64_t)cfg.groups * cfg.fds * 2;
	if (ntasks > 20000)
		usage_error("too many tasks (%llu > 20000)", (unsigned long long)ntasks);

	/* Probe the IPC kind before starting anything. */
	if (cfg.sockets) {
		int sv[2];

		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
			fprintf(stderr, PROG
				": socketpair(AF_UNIX) failed: %s (kernel without CONFIG_NET/CONFIG_UNIX?); use pipes (drop -s)\n",
				strerror(errno));
			return 2;
		}
		if (close(sv[0]) || close(sv[1]))
			die("close");
	}

	/* Thread mode keeps every channel open until the end. */
	raise_nofile(16 + 2ULL * cfg.fds * (cfg.threads ? cfg.groups : 1));

	watchdog_hook = kill_children;
	watchdog(cfg.timeout_s);

	if (pipe(ready_pipe) || pipe(wakeup_pipe))
		die("pipe");

	chan = calloc((size_t)cfg.fds * (cfg.threads ? cfg.groups : 1), sizeof(*chan));
	outs = calloc((size_t)cfg.fds * (cfg.threads ? cfg.groups : 1), sizeof(*outs));
	if (!chan || !outs)
		die("calloc");
	if (cfg.threads) {
		tids = calloc(ntasks, sizeof(*tids));
		sargs = calloc((size_t)cfg.groups * cfg.fds, sizeof(*sargs));
		rargs = calloc((size_t)cfg.groups * cfg.fds, sizeof(*rargs));
		if (!tids || !sargs || !rargs)
			die("calloc");
		thread_attr_init(&attr, 256 * 1024);
	} else {
		children = calloc(ntasks, sizeof(*children));
		if (!children)
			die("calloc");
	}

	for (g = 0; g < cfg.groups; g++) {
		unsigned int base = cfg.threads ? g * cfg.fds : 0;
		int (*gc)[2] = &chan[base];
		int *gout = &outs[base];

		for (i = 0; i < cfg.fds; i++) {
			make_channel(gc[i]);
			gout[i] = gc[i][1];
		}
		/* receivers first, then senders (2 * fds tasks per group) */
		for (i = 0; i < 2 * cfg.fds; i++) {
			bool is_recv = i < cfg.fds;
			unsigned int k = is_recv ? i : i - cfg.fds;

			if (cfg.threads) {
				if (is_recv) {
					rargs[base + k].in = gc[k][0];
					thread_start(&tids[t], &attr, receiver_thread,
						     &rargs[base + k], "pthread_create");
				} else {
					sargs[base + k].out = gout;
					thread_start(&tids[t], &attr, sender_thread,
						     &sargs[base + k], "pthread_create");
				}
			} else {
				pid_t pid = fork();

				if (pid < 0) {
					int e = errno;

					kill_children();
					die_err("fork", e);
				}
				if (pid == 0) {
					/* only the parent may signal the start */
					if (close(wakeup_pipe[1]) || close(ready_pipe[0]))
						task_fail("close");
					if (is_recv) {
						struct receiver_arg a = { .in = gc[k][0] };

						receiver(&a);
					} else {
						struct sender_arg a = { .out = gout };

						sender(&a);
					}
					_exit(0);
				}
				children[t] = pid;
				__atomic_store_n(&nchildren, (sig_atomic_t)(t + 1),
						 __ATOMIC_RELAXED);
			}
			t++;
		}
		if (!cfg.threads) {
			/* the children hold their own copies */
			for (i = 0; i < cfg.fds; i++)
				if (close(gc[i][0]) || close(gc[i][1]))
					die("close");
		}
	}

	/* Wait until every task is ready, then release them all at once. */
	for (nready = 0; nready < ntasks;) {
		ssize_t n = read(ready_pipe[0], &c, 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n != 1)
			die("read(ready)");
		nready++;
	}
	start = now_ns();
	if (write(wakeup_pipe[1], "W", 1) != 1)
		die("write(wakeup)");

	if (cfg.threads) {
		for (t = 0; t < ntasks; t++)
			thread_join(tids[t]);
	} else {
		for (t = 0; t < ntasks;) {
			int status;
			pid_t pid = waitpid(-1, &status, 0);

			if (pid < 0) {
				if (errno == EINTR)
					continue;
				die("waitpid");
			}
			t++;
			if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
				fprintf(stderr, PROG ": task %d failed (status 0x%x)\n",
					(int)pid, status);
				kill_children();
				while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
					;	/* reap them until ECHILD */
				return 1;
			}
			for (i = 0;
			     i < (unsigned int)__atomic_load_n(&nchildren, __ATOMIC_RELAXED);
			     i++)
				if (children[i] == pid)
					children[i] = 0;
		}
	}
	end = now_ns();
	alarm(0);

	if (cfg.threads) {
		for (i = 0; i < cfg.groups * cfg.fds; i++)
			if (close(chan[i][0]) || close(chan[i][1]))
				die("close");
		pthread_attr_destroy(&attr);
	}

	printf("Running in %s mode with %u groups using %u file descriptors each (== %llu tasks)\n",
	       cfg.threads ? "threaded" : "process",
	       cfg.groups, cfg.fds, (unsigned long long)ntasks);
	printf("Each sender will pass %u messages of %d bytes\n", cfg.loops, MSG_SIZE);
	printf("Time: %.3f\n", ns_to_s(end - start));
	if (cfg.json)
		json_line(stdout,
			  "\"time_s\":%.6f,\"groups\":%u,\"fds\":%u,\"loops\":%u,\"mode\":\"%s\",\"ipc\":\"%s\"",
			  ns_to_s(end - start), cfg.groups, cfg.fds, cfg.loops,
			  cfg.threads ? "thread" : "process",
			  cfg.sockets ? "socket" : "pipe");
	flush_stdout();
	free(children);
	free(tids);
	free(sargs);
	free(rargs);
	free(outs);
	free(chan);
	return 0;
}
