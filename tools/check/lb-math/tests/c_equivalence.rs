// SPDX-License-Identifier: GPL-2.0

//! Differential test against the C itself: the arithmetic of Linux 6.12's
//! `update_idle_cpu_scan()`, `sibling_imbalance()`,
//! `adjust_numa_imbalance()`, the `group_has_spare` task branch of
//! `calculate_imbalance()`, and the ILB_UTIL RFC's
//! `update_ilb_group_scan()` plus its scan loop, compiled with the host C
//! compiler with the kernel's C types and `-fno-strict-overflow`.
//!
//! Inputs come from a fixed pseudo-random sequence (reproducible) that
//! mixes realistic values with large ones; results are compared wherever
//! the C arithmetic does not overflow, and the documented divergence is
//! checked where it does. Skipped (with a message) when `cc` is missing.

use lb_math::math::{
    ilb_scan_depth, llc_spread_imbalance, sibling_imbalance, sis_util_nr_idle_scan, SpreadContext,
};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// Kernel C, as in 6.12 (and the RFC), with the kernel's macros.
const C_SOURCE: &str = r#"
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef uint64_t u64;
typedef uint32_t u32;

#define SCHED_CAPACITY_SCALE (1L << 10)
#define NUMA_IMBALANCE_MIN 2
#define min_t(type, x, y) ({ type __x = (x); type __y = (y); __x < __y ? __x : __y; })
#define max_t(type, x, y) ({ type __x = (x); type __y = (y); __x > __y ? __x : __y; })
#define do_div(n, base) ({ uint32_t __base = (base); uint32_t __rem; \
	__rem = ((uint64_t)(n)) % __base; (n) = ((uint64_t)(n)) / __base; __rem; })
#define lsub_positive(_ptr, _val) do { typeof(_ptr) ptr = (_ptr); \
	*ptr -= min_t(typeof(*ptr), *ptr, _val); } while (0)

/* update_idle_cpu_scan(), from "llc_weight = ..." on. */
static int sis_util(unsigned long sum_util, int llc_weight, unsigned int imbalance_pct)
{
	int pct;
	u64 x, y, tmp;

	x = sum_util;
	do_div(x, llc_weight);

	pct = imbalance_pct;
	tmp = x * x * pct * pct;
	do_div(tmp, 10000 * SCHED_CAPACITY_SCALE);
	tmp = min_t(long, tmp, SCHED_CAPACITY_SCALE);
	y = SCHED_CAPACITY_SCALE - tmp;

	y *= llc_weight;
	do_div(y, SCHED_CAPACITY_SCALE);
	return (int)y;
}

/* RFC 3/4 update_ilb_group_scan(): the stored ilb_nr_scan. */
static int ilb_nr_scan(unsigned int nr_groups, unsigned long sum_util, unsigned int span_weight)
{
	u64 tmp, nr_scan;

	nr_scan = nr_groups * sum_util;
	tmp = span_weight * SCHED_CAPACITY_SCALE;
	do_div(nr_scan, tmp);
	nr_scan = nr_groups - nr_scan;
	return (int)nr_scan;
}

/* RFC 4/4 update_sd_lb_stats() loop: groups visited. */
static unsigned int ilb_visited(unsigned int nr_groups, int nr_scan_ilb)
{
	unsigned int visited = 0, g = 0;

	do {
		visited++;
		if (--nr_scan_ilb <= 0)
			break;
	} while (++g < nr_groups);
	return visited;
}

static long sibling_imbalance(int env_idle, unsigned int busiest_nr, unsigned int local_nr,
			      int ncores_busiest, int ncores_local)
{
	long imbalance;

	if (!env_idle || !busiest_nr)
		return 0;

	if (ncores_busiest == ncores_local) {
		imbalance = busiest_nr;
		lsub_positive(&imbalance, local_nr);
		return imbalance;
	}

	imbalance = ncores_local * busiest_nr;
	lsub_positive(&imbalance, ncores_busiest * local_nr);
	imbalance = 2 * imbalance + ncores_local + ncores_busiest;
	imbalance /= ncores_local + ncores_busiest;

	if (imbalance <= 1 && local_nr == 0 && busiest_nr > 1)
		imbalance = 2;

	return imbalance;
}

static long adjust_numa_imbalance(int imbalance, int dst_running, int imb_numa_nr)
{
	if (dst_running > imb_numa_nr)
		return imbalance;
	if (imbalance <= NUMA_IMBALANCE_MIN)
		return 0;
	return imbalance;
}

/* calculate_imbalance(), group_has_spare, task-count part. */
static long spread(unsigned int l_idle, unsigned int b_idle, unsigned int l_nr,
		   unsigned int b_nr, unsigned int b_weight, int prefer_sibling,
		   int env_idle, int l_cores, int b_cores, int numa, int imb_numa_nr)
{
	long imbalance;

	if (b_weight == 1 || prefer_sibling)
		imbalance = sibling_imbalance(env_idle, b_nr, l_nr, b_cores, l_cores);
	else
		imbalance = max_t(long, 0, (l_idle - b_idle));

	if (numa)
		imbalance = adjust_numa_imbalance(imbalance, l_nr + 1, imb_numa_nr);

	imbalance >>= 1;
	return imbalance;
}

int main(void)
{
	char op[16];

	while (scanf("%15s", op) == 1) {
		if (!strcmp(op, "sis")) {
			unsigned long s; int w; unsigned int p;
			scanf("%lu %d %u", &s, &w, &p);
			printf("%d\n", sis_util(s, w, p));
		} else if (!strcmp(op, "ilb")) {
			unsigned int n, w; unsigned long s;
			scanf("%u %lu %u", &n, &s, &w);
			printf("%u\n", ilb_visited(n, ilb_nr_scan(n, s, w)));
		} else if (!strcmp(op, "sib")) {
			int idle, bc, lc; unsigned int bn, ln;
			scanf("%d %u %u %d %d", &idle, &bn, &ln, &bc, &lc);
			printf("%ld\n", sibling_imbalance(idle, bn, ln, bc, lc));
		} else if (!strcmp(op, "spread")) {
			unsigned int li, bi, ln, bn, bw; int ps, idle, lc, bc, numa, inr;
			scanf("%u %u %u %u %u %d %d %d %d %d %d",
			      &li, &bi, &ln, &bn, &bw, &ps, &idle, &lc, &bc, &numa, &inr);
			printf("%ld\n", spread(li, bi, ln, bn, bw, ps, idle, lc, bc, numa, inr));
		} else {
			return 2;
		}
	}
	return 0;
}
"#;

/// Compiles `source` as `name` with the host C compiler and `flags`;
/// `None` when no C compiler is available.
fn compile(name: &str, source: &str, flags: &[&str]) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let src = dir.join(format!("{name}.c"));
    let bin = dir.join(name);
    std::fs::write(&src, source).expect("write C source");
    let status = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .args(["-O2", "-std=gnu11"])
        .args(flags)
        .arg("-o")
        .arg(&bin)
        .arg(&src)
        .status();
    match status {
        Ok(s) if s.success() => Some(bin),
        Ok(s) => panic!("{name}.c failed to compile: {s}"),
        Err(e) => {
            eprintln!("c_equivalence: skipped, no C compiler ({e})");
            None
        }
    }
}

/// Runs a compiled harness on one command per line, returns one output
/// line each.
fn run(bin: &PathBuf, input: &str) -> Vec<String> {
    let mut child = Command::new(bin)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run the C harness");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("the C harness's output");
    writer.join().unwrap().expect("feed the C harness");
    assert!(out.status.success(), "the C harness exited {}", out.status);
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// The kernel's C compiled once, as 6.12 (and the RFC) compile it.
fn harness() -> Option<&'static PathBuf> {
    static BIN: OnceLock<Option<PathBuf>> = OnceLock::new();
    BIN.get_or_init(|| compile("lb_math_c_ref", C_SOURCE, &["-fno-strict-overflow", "-w"]))
        .as_ref()
}

/// Runs the kernel's C on one command per line, one number per line.
fn run_c(bin: &PathBuf, input: &str) -> Vec<i64> {
    run(bin, input).iter().map(|l| l.parse().unwrap()).collect()
}

/// xorshift64*: a fixed, reproducible input sequence.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Mostly small values, sometimes up to `max`, sometimes the edges.
    fn pick(&mut self, small: u64, max: u64) -> u64 {
        match self.next() % 8 {
            0 => 0,
            1 => max,
            2 | 3 => self.next() % max.saturating_add(1).max(1),
            _ => self.next() % (small + 1),
        }
    }
}

const CASES: usize = 50_000;

#[test]
fn sis_util_matches_c() {
    let Some(bin) = harness() else { return };
    let mut rng = Rng(0x5eed_0001);
    let mut cases = Vec::new();
    while cases.len() < CASES {
        let w = rng.pick(512, i32::MAX as u64).max(1) as u32;
        let s = match rng.next() % 3 {
            0 => rng.next() % (u64::from(w) * 1300 + 1), // 0..127% of capacity
            1 => rng.pick(1 << 20, u64::MAX),
            _ => rng.next(),
        };
        // `int pct = sd->imbalance_pct` wraps above INT_MAX: not compared.
        let p = rng.pick(200, i32::MAX as u64) as u32;
        let x = u128::from(s / u64::from(w));
        let exact = x
            .checked_mul(x)
            .and_then(|v| v.checked_mul(u128::from(p) * u128::from(p)));
        let c_overflows = exact.map_or(true, |e| e > u128::from(u64::MAX));
        if !c_overflows {
            cases.push((s, w, p));
        }
    }
    let input: String = cases
        .iter()
        .map(|(s, w, p)| format!("sis {s} {w} {p}\n"))
        .collect();
    let c = run_c(bin, &input);
    assert_eq!(c.len(), cases.len());
    for ((s, w, p), c) in cases.iter().zip(c) {
        assert_eq!(
            i64::from(sis_util_nr_idle_scan(*s, *w, *p)),
            c,
            "sum_util={s} llc_weight={w} pct={p}"
        );
    }
}

#[test]
fn ilb_scan_matches_rfc_c() {
    let Some(bin) = harness() else { return };
    let mut rng = Rng(0x5eed_0002);
    let mut cases = Vec::new();
    while cases.len() < CASES {
        let n = rng.pick(64, 1 << 20).max(1) as u32;
        // span_weight * 1024 must fit do_div()'s 32-bit divisor.
        let w = rng.pick(512, (1 << 22) - 1).max(1) as u32;
        // Up to 4x capacity, so that the C's wrapped difference stays a
        // small negative int.
        let s = rng.next() % (u64::from(w) * 4096 + 1);
        cases.push((n, s, w));
    }
    let input: String = cases
        .iter()
        .map(|(n, s, w)| format!("ilb {n} {s} {w}\n"))
        .collect();
    let c = run_c(bin, &input);
    for ((n, s, w), c) in cases.iter().zip(c) {
        assert_eq!(
            i64::from(ilb_scan_depth(*n, *s, *w)),
            c,
            "nr_groups={n} sum_util={s} span_weight={w}"
        );
    }
}

#[test]
fn sibling_imbalance_matches_c() {
    let Some(bin) = harness() else { return };
    let mut rng = Rng(0x5eed_0003);
    let mut cases = Vec::new();
    while cases.len() < CASES {
        let idle = rng.next() % 4 != 0;
        let bn = rng.pick(64, u64::from(u32::MAX)) as u32;
        let ln = rng.pick(64, u64::from(u32::MAX)) as u32;
        let bc = rng.pick(32, i32::MAX as u64) as u32;
        let lc = rng.pick(32, i32::MAX as u64) as u32;
        // The C products are `unsigned int` and the sum of cores `int`.
        let fits = u64::from(lc) * u64::from(bn) <= u64::from(u32::MAX)
            && u64::from(bc) * u64::from(ln) <= u64::from(u32::MAX)
            && u64::from(lc) + u64::from(bc) <= i32::MAX as u64;
        if fits {
            cases.push((idle, bn, ln, bc, lc));
        }
    }
    let input: String = cases
        .iter()
        .map(|(i, bn, ln, bc, lc)| format!("sib {} {bn} {ln} {bc} {lc}\n", u8::from(*i)))
        .collect();
    let c = run_c(bin, &input);
    for ((idle, bn, ln, bc, lc), c) in cases.iter().zip(c) {
        let ours = sibling_imbalance(*idle, *ln, *bn, *lc, *bc);
        assert_eq!(
            i128::from(ours),
            i128::from(c),
            "idle={idle} busiest_nr={bn} local_nr={ln} busiest_cores={bc} local_cores={lc}"
        );
    }
}

#[test]
fn llc_spread_matches_c_except_underflow() {
    let Some(bin) = harness() else { return };
    let mut rng = Rng(0x5eed_0004);
    let mut cases = Vec::new();
    while cases.len() < CASES {
        let li = rng.pick(64, 1 << 20) as u32;
        let bi = rng.pick(64, 1 << 20) as u32;
        let ln = rng.pick(64, 1 << 20) as u32;
        let bn = rng.pick(64, 1 << 20) as u32;
        let ctx = SpreadContext {
            busiest_group_weight: if rng.next() % 3 == 0 {
                1
            } else {
                rng.pick(64, 1 << 20) as u32
            },
            prefer_sibling: rng.next() % 3 == 0,
            dst_idle: rng.next() % 4 != 0,
            local_cores: rng.pick(32, 1 << 10) as u32,
            busiest_cores: rng.pick(32, 1 << 10) as u32,
            numa_imb_nr: (rng.next() % 3 == 0).then(|| rng.pick(16, 1 << 20) as u32),
        };
        cases.push((li, bi, ln, bn, ctx));
    }
    let input: String = cases
        .iter()
        .map(|(li, bi, ln, bn, c)| {
            format!(
                "spread {li} {bi} {ln} {bn} {} {} {} {} {} {} {}\n",
                c.busiest_group_weight,
                u8::from(c.prefer_sibling),
                u8::from(c.dst_idle),
                c.local_cores,
                c.busiest_cores,
                u8::from(c.numa_imb_nr.is_some()),
                c.numa_imb_nr.unwrap_or(0)
            )
        })
        .collect();
    let c = run_c(bin, &input);
    let mut underflows = 0;
    for ((li, bi, ln, bn, ctx), c) in cases.iter().zip(c) {
        let ours = llc_spread_imbalance(*li, *bi, *ln, *bn, *ctx).imbalance;
        let idle_path = !(ctx.busiest_group_weight == 1 || ctx.prefer_sibling);
        if idle_path && li < bi {
            // 6.12 wraps: (unsigned)(li - bi) as a positive long. Ours
            // saturates at 0 (NUMA adjustment of 0 is 0).
            underflows += 1;
            if ctx.numa_imb_nr.is_none() {
                // Roughly 2^31 tasks when the difference is small.
                assert_eq!(c, i64::from(li.wrapping_sub(*bi)) >> 1);
            }
            assert_eq!(ours, 0);
            continue;
        }
        assert_eq!(
            i128::from(ours),
            i128::from(c),
            "l_idle={li} b_idle={bi} l_nr={ln} b_nr={bn} {ctx:?}"
        );
    }
    assert!(underflows > 1000, "underflow case not exercised");
}

/// The C twins of the decisions (`kernel/sched/rust_lb_decisions.h`, what
/// `RUST_LB_VERIFY` and the kernel benchmark run), compiled as they are
/// with a prelude of the kernel types and helpers they use (the fields
/// of the kernel's structures that twins read, and the flags as
/// `rust_lb.h` makes them).
const TWINS_PRELUDE: &str = r#"
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef uint64_t u64;
typedef uint32_t u32;
typedef int64_t s64;

#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif
#define SCHED_CAPACITY_SCALE (1L << 10)
#define READ_ONCE(x) (x)
#define min_t(type, x, y) ({ type __x = (x); type __y = (y); __x < __y ? __x : __y; })
#define check_mul_overflow(a, b, d) __builtin_mul_overflow(a, b, d)
static inline u64 size_mul(u64 a, u64 b) { u64 r; return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r; }
static inline u64 size_add(u64 a, u64 b) { u64 r; return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r; }
#define rust_lb_twin_count(name) do { } while (0)

enum cpu_idle_type { __CPU_NOT_IDLE = 0, CPU_IDLE, CPU_NEWLY_IDLE };
enum group_type { group_has_spare = 0, group_fully_busy, group_misfit_task, group_smt_balance,
		  group_asym_packing, group_imbalanced, group_overloaded };
enum migration_type { migrate_load = 0, migrate_util, migrate_task, migrate_misfit };
#define SD_SHARE_LLC 0x1
#define SD_NUMA 0x2
struct rq { u64 avg_idle; };
struct sched_domain {
	int flags;
	unsigned int imbalance_pct, imb_numa_nr;
	u64 max_newidle_lb_cost;
};
struct sched_group { unsigned int cores; };
struct sg_lb_stats {
	unsigned long group_capacity, group_util;
	unsigned int idle_cpus, sum_nr_running, group_weight;
	enum group_type group_type;
};
struct sd_lb_stats {
	struct sched_group *busiest, *local;
	struct sg_lb_stats busiest_stat, local_stat;
	unsigned int prefer_sibling;
};
struct lb_env {
	struct sched_domain *sd;
	enum cpu_idle_type idle;
	long imbalance;
	enum migration_type migration_type;
};

struct rust_lb_flags { unsigned int bits; };
enum rust_lb_flag {
#define RUST_LB_FLAG(name) RUST_LB_F_##name,
#include "rust_lb_decisions.h"
#undef RUST_LB_FLAG
};
#define rust_lb_flag_set(flags, name) ((flags).bits & (1U << RUST_LB_F_##name))

#define RUST_LB_INPUTS
#include "rust_lb_decisions.h"
#undef RUST_LB_INPUTS
#define RUST_LB_TWINS
#include "rust_lb_decisions.h"
"#;

const TWINS_MAIN: &str = r#"
int main(void)
{
	char op[16];

	while (scanf("%15s", op) == 1) {
		unsigned long long a, b, c, d, e;
		if (!strcmp(op, "sis")) {
			scanf("%llu %llu %llu", &a, &b, &c);
			printf("%u\n", rust_lb_twin_sis_util_scan(a, b, c));
		} else if (!strcmp(op, "ilb")) {
			scanf("%llu %llu %llu", &a, &b, &c);
			printf("%u\n", rust_lb_twin_ilb_scan_depth(a, b, c));
		} else if (!strcmp(op, "newidle")) {
			struct rq rq;
			struct sched_domain sd;

			scanf("%llu %llu %llu %llu %llu", &a, &b, &c, &d, &e);
			rq.avg_idle = c;
			sd.max_newidle_lb_cost = d;
			printf("%d\n", rust_lb_twin_newidle_skip(&rq, e ? &sd : NULL,
				&(struct rust_lb_rd_overload){ .feature = a, .overloaded = b }));
		} else if (!strcmp(op, "ttwu")) {
			scanf("%llu %llu %llu", &a, &b, &c);
			printf("%d\n", rust_lb_twin_ttwu_queue_cond(&(struct rust_lb_in_ttwu_queue_cond){
				.nr_running = a, .queue_idle = b, .wakee_on_cpu = c }));
		} else if (!strcmp(op, "serialize")) {
			struct rust_lb_flags f;

			scanf("%llu %llu", &a, &b);
			f.bits = (a ? 1U << RUST_LB_F_SERIALIZE_DUE : 0) | (b ? 1U << RUST_LB_F_DUE : 0);
			printf("%d\n", rust_lb_twin_serialize_try(f));
		} else if (!strcmp(op, "spare")) {
			unsigned long long v[17];
			struct sched_domain sd;
			struct sched_group lg, bg;
			struct sd_lb_stats sds;
			struct lb_env env;
			int i;

			for (i = 0; i < 17; i++)
				scanf("%llu", &v[i]);
			memset(&sds, 0, sizeof(sds));
			sd.flags = (v[1] ? SD_SHARE_LLC : 0) | (v[2] ? SD_NUMA : 0);
			sd.imb_numa_nr = v[3];
			env.sd = &sd;
			env.idle = v[4];
			env.imbalance = -1;
			env.migration_type = migrate_load;
			sds.busiest_stat.group_type = v[5] ? group_overloaded : group_has_spare;
			sds.local_stat.group_capacity = v[6];
			sds.local_stat.group_util = v[7];
			sds.local_stat.idle_cpus = v[8];
			sds.busiest_stat.idle_cpus = v[9];
			sds.local_stat.sum_nr_running = v[10];
			sds.busiest_stat.sum_nr_running = v[11];
			sds.busiest_stat.group_weight = v[12];
			sds.prefer_sibling = v[13];
			lg.cores = v[14];
			bg.cores = v[15];
			sds.local = &lg;
			sds.busiest = &bg;
			rust_lb_twin_spare_imbalance(&env, &sds, v[0]);
			printf("%d %ld\n", env.migration_type, env.imbalance);
			(void)v[16];
		} else if (!strcmp(op, "wide")) {
			struct rust_lb_in_wake_wide in;

			scanf("%u %u %u", &in.waker_flips, &in.wakee_flips, &in.llc_size);
			printf("%d\n", rust_lb_twin_wake_wide(&in));
		} else if (!strcmp(op, "affine")) {
			struct rust_lb_in_wake_affine in;
			unsigned long long v[17];
			int i;

			for (i = 0; i < 17; i++)
				scanf("%llu", &v[i]);
			in.this_cpu = v[0];
			in.prev_cpu = v[1];
			in.sync = v[2];
			in.wa_idle = v[3];
			in.wa_weight = v[4];
			in.wa_bias = v[5];
			in.this_idle = v[6];
			in.prev_idle = v[7];
			in.share_cache = v[8];
			in.this_nr_running = v[9];
			in.imbalance_pct = v[10];
			in.this_load = v[11];
			in.prev_load = v[12];
			in.task_load = v[13];
			in.current_load = v[14];
			in.this_capacity = v[15];
			in.prev_capacity = v[16];
			printf("%d\n", rust_lb_twin_wake_affine(&in));
		} else if (!strcmp(op, "migrate")) {
			struct rust_lb_in_can_migrate_task in = { 0 };

			scanf("%d %d %u %u", &in.locality, &in.hot, &in.nr_balance_failed,
			      &in.cache_nice_tries);
			printf("%d\n", rust_lb_twin_can_migrate_task(&in));
		} else if (!strcmp(op, "detach")) {
			struct rust_lb_in_detach_tasks in;

			scanf("%u %u", &in.nr_migrate, &in.nr_running);
			printf("%u\n", rust_lb_twin_detach_tasks(&in));
		} else if (!strcmp(op, "interval")) {
			struct rust_lb_in_balance_interval in = { 0 };

			scanf("%llu %llu", &a, &b);
			in.interval = a;
			in.max_interval = b;
			printf("%llu\n", (unsigned long long)rust_lb_twin_balance_interval(&in));
		} else if (!strcmp(op, "nidom")) {
			struct rust_lb_in_newidle_domain in = { 0 };

			scanf("%llu %llu %llu", &a, &b, &c);
			in.avg_idle_ns = a;
			in.curr_cost_ns = b;
			in.max_newidle_lb_cost_ns = c;
			printf("%d\n", rust_lb_twin_newidle_domain(&in));
		} else {
			return 2;
		}
	}
	return 0;
}
"#;

/// The twins compiled once, warnings as errors.
fn twins_harness() -> Option<&'static PathBuf> {
    static BIN: OnceLock<Option<PathBuf>> = OnceLock::new();
    BIN.get_or_init(|| {
        let dir =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../kernel-patches/kernel/sched");
        let include = format!("-I{}", dir.display());
        let source = format!("{TWINS_PRELUDE}\n{TWINS_MAIN}");
        compile(
            "lb_math_c_twins",
            &source,
            &[
                "-Wall",
                "-Werror",
                "-Wno-unused-function",
                "-fno-strict-overflow",
                &include,
            ],
        )
    })
    .as_ref()
}

/// Every decision's C twin decides as the Rust built-in does, in every
/// feature position, on inputs from small to the types' edges: the twins
/// that `RUST_LB_VERIFY` compares the kernel's Rust with are right.
#[test]
fn twins_match_rust_everywhere() {
    use lb_math::math::{Newidle, Serialize, Spare, TtwuQueue};

    let Some(bin) = twins_harness() else { return };
    let mut rng = Rng(0x5eed_0005);
    let mut input = String::new();
    let mut want = Vec::new();
    let b = |rng: &mut Rng| rng.next() % 2 == 1;
    for _ in 0..CASES {
        let (s, w, p) = (
            rng.pick(1 << 20, u64::MAX),
            rng.pick(512, u64::from(u32::MAX)) as u32,
            rng.pick(200, u64::from(u32::MAX)) as u32,
        );
        input += &format!("sis {s} {w} {p}\n");
        want.push(sis_util_nr_idle_scan(s, w, p).to_string());

        let n = rng.pick(64, u64::from(u32::MAX)) as u32;
        input += &format!("ilb {n} {s} {w}\n");
        want.push(ilb_scan_depth(n, s, w).to_string());

        let ni = Newidle {
            rd_overload: b(&mut rng),
            rd_overloaded: b(&mut rng),
            avg_idle_ns: rng.pick(1 << 20, u64::MAX),
            max_newidle_lb_cost_ns: rng.pick(1 << 20, u64::MAX),
        };
        // No domain: a cost of 0, as the Rust reads it.
        let has_sd = rng.next() % 8 != 0;
        let ni = Newidle {
            max_newidle_lb_cost_ns: if has_sd { ni.max_newidle_lb_cost_ns } else { 0 },
            ..ni
        };
        input += &format!(
            "newidle {} {} {} {} {}\n",
            u8::from(ni.rd_overload),
            u8::from(ni.rd_overloaded),
            ni.avg_idle_ns,
            ni.max_newidle_lb_cost_ns,
            u8::from(has_sd)
        );
        want.push(u8::from(ni.builtin()).to_string());

        let t = TtwuQueue {
            nr_running: rng.pick(4, u64::from(u32::MAX)) as u32,
            wakee_on_cpu: b(&mut rng),
            queue_idle: b(&mut rng),
        };
        input += &format!(
            "ttwu {} {} {}\n",
            t.nr_running,
            u8::from(t.queue_idle),
            u8::from(t.wakee_on_cpu)
        );
        want.push(u8::from(t.builtin()).to_string());

        let se = Serialize {
            serialize_due: b(&mut rng),
            due: b(&mut rng),
        };
        input += &format!(
            "serialize {} {}\n",
            u8::from(se.serialize_due),
            u8::from(se.due)
        );
        want.push(u8::from(se.builtin()).to_string());

        let numa = b(&mut rng);
        let idle = rng.next() % 3;
        let sp = Spare {
            llc_spread: b(&mut rng),
            busiest_overloaded: b(&mut rng),
            share_llc: b(&mut rng),
            local_capacity: rng.pick(4096, u64::from(u32::MAX)),
            local_util: rng.pick(4096, u64::from(u32::MAX)),
            local_idle_cpus: rng.pick(64, 1 << 20) as u32,
            busiest_idle_cpus: rng.pick(64, 1 << 20) as u32,
            local_nr_running: rng.pick(64, u64::from(u32::MAX)) as u32,
            busiest_nr_running: rng.pick(64, u64::from(u32::MAX)) as u32,
            spread: SpreadContext {
                busiest_group_weight: if rng.next() % 3 == 0 {
                    1
                } else {
                    rng.pick(64, 1 << 20) as u32
                },
                prefer_sibling: rng.next() % 3 == 0,
                dst_idle: idle != 0,
                local_cores: rng.pick(32, 1 << 20) as u32,
                busiest_cores: rng.pick(32, 1 << 20) as u32,
                numa_imb_nr: None,
            },
        };
        let imb_numa_nr = rng.pick(16, u64::from(u32::MAX)) as u32;
        let sp = Spare {
            spread: SpreadContext {
                numa_imb_nr: numa.then_some(imb_numa_nr),
                ..sp.spread
            },
            ..sp
        };
        input += &format!(
            "spare {} {} {} {imb_numa_nr} {idle} {} {} {} {} {} {} {} {} {} {} {} 0\n",
            u8::from(sp.llc_spread),
            u8::from(sp.share_llc),
            u8::from(numa),
            u8::from(sp.busiest_overloaded),
            sp.local_capacity,
            sp.local_util,
            sp.local_idle_cpus,
            sp.busiest_idle_cpus,
            sp.local_nr_running,
            sp.busiest_nr_running,
            sp.spread.busiest_group_weight,
            u8::from(sp.spread.prefer_sibling),
            sp.spread.local_cores,
            sp.spread.busiest_cores,
        );
        let imb = sp.builtin();
        want.push(format!("{} {}", imb.migration_type as u32, imb.imbalance));
    }
    let got = run(bin, &input);
    assert_eq!(got.len(), want.len());
    for ((got, want), line) in got.iter().zip(&want).zip(input.lines()) {
        assert_eq!(got, want, "C twin and Rust differ on: {line}");
    }
}

/// The decisions of fair.c's own code that a policy module may take over:
/// each C twin (the stock rule over the input) decides as the Rust
/// built-in does, on inputs from small to the types' edges, the 64-bit
/// arithmetic of `wake_affine()` wrapping as the kernel's does.
#[test]
fn hook_twins_match_rust_everywhere() {
    use lb_math::math::{
        BalanceInterval, CanMigrateTask, DetachTasks, NewidleDomain, WakeAffine, WakeWide,
    };

    let Some(bin) = twins_harness() else { return };
    let mut rng = Rng(0x5eed_0046);
    let mut input = String::new();
    let mut want = Vec::new();
    let b = |rng: &mut Rng| rng.next() % 2 == 1;
    let u32_ = |rng: &mut Rng, small: u64| rng.pick(small, u64::from(u32::MAX)) as u32;
    for _ in 0..CASES {
        let w = WakeWide {
            waker_flips: u32_(&mut rng, 64),
            wakee_flips: u32_(&mut rng, 64),
            llc_size: u32_(&mut rng, 16),
        };
        input += &format!("wide {} {} {}\n", w.waker_flips, w.wakee_flips, w.llc_size);
        want.push(u8::from(w.builtin()).to_string());

        let a = WakeAffine {
            this_cpu: 0,
            prev_cpu: 1,
            sync: b(&mut rng),
            wa_idle: b(&mut rng),
            wa_weight: b(&mut rng),
            wa_bias: b(&mut rng),
            this_idle: b(&mut rng),
            prev_idle: b(&mut rng),
            share_cache: b(&mut rng),
            this_nr_running: u32_(&mut rng, 3),
            imbalance_pct: u32_(&mut rng, 200),
            this_load: rng.pick(1 << 12, u64::MAX),
            prev_load: rng.pick(1 << 12, u64::MAX),
            task_load: rng.pick(1 << 12, u64::MAX),
            current_load: rng.pick(1 << 12, u64::MAX),
            this_capacity: rng.pick(1 << 11, u64::MAX),
            prev_capacity: rng.pick(1 << 11, u64::MAX),
        };
        input += &format!(
            "affine {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {} {}\n",
            a.this_cpu,
            a.prev_cpu,
            u8::from(a.sync),
            u8::from(a.wa_idle),
            u8::from(a.wa_weight),
            u8::from(a.wa_bias),
            u8::from(a.this_idle),
            u8::from(a.prev_idle),
            u8::from(a.share_cache),
            a.this_nr_running,
            a.imbalance_pct,
            a.this_load,
            a.prev_load,
            a.task_load,
            a.current_load,
            a.this_capacity,
            a.prev_capacity,
        );
        want.push(u8::from(a.builtin()).to_string());

        let m = CanMigrateTask {
            locality: (rng.next() % 3) as i32 - 1,
            hot: (rng.next() % 3) as i32 - 1,
            nr_balance_failed: u32_(&mut rng, 8),
            cache_nice_tries: u32_(&mut rng, 8),
            ..Default::default()
        };
        input += &format!(
            "migrate {} {} {} {}\n",
            m.locality, m.hot, m.nr_balance_failed, m.cache_nice_tries
        );
        want.push(u8::from(m.builtin()).to_string());

        let d = DetachTasks {
            nr_migrate: u32_(&mut rng, 64),
            nr_running: u32_(&mut rng, 64),
        };
        input += &format!("detach {} {}\n", d.nr_migrate, d.nr_running);
        want.push(d.builtin().to_string());

        let i = BalanceInterval {
            interval: rng.pick(256, u64::MAX),
            max_interval: rng.pick(256, u64::MAX),
            ..Default::default()
        };
        input += &format!("interval {} {}\n", i.interval, i.max_interval);
        want.push(i.builtin().to_string());

        let n = NewidleDomain {
            avg_idle_ns: rng.pick(1 << 20, u64::MAX),
            curr_cost_ns: rng.pick(1 << 20, u64::MAX),
            max_newidle_lb_cost_ns: rng.pick(1 << 20, u64::MAX),
            level: 0,
        };
        input += &format!(
            "nidom {} {} {}\n",
            n.avg_idle_ns, n.curr_cost_ns, n.max_newidle_lb_cost_ns
        );
        want.push(u8::from(n.builtin()).to_string());
    }
    let got = run(bin, &input);
    assert_eq!(got.len(), want.len());
    for ((got, want), line) in got.iter().zip(&want).zip(input.lines()) {
        assert_eq!(got, want, "C twin and Rust differ on: {line}");
    }
}
