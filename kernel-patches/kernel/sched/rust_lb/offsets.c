// SPDX-License-Identifier: GPL-2.0
/*
 * Offsets of the scheduler-private fields the Rust helpers read: struct rq
 * and struct sched_group are described only by kernel/sched/sched.h, which
 * bindgen does not read.  The tree's top-level Kbuild turns this file into
 * include/generated/sched-rust-lb-offsets.h as it turns asm-offsets.c into
 * asm-offsets.h; rust/bindings/bindings_helper.h includes it, so the kernel
 * crate reads these fields at constant offsets, without calls.  Each field
 * comes with its size, which the kernel crate checks against the Rust type
 * it reads.
 */
#define COMPILE_OFFSETS
#include <linux/kbuild.h>
#include "glue.h"

int main(void)
{
	DEFINE(RUST_LB_RQ_SD, offsetof(struct rq, sd));
	DEFINE(RUST_LB_RQ_SD_SIZE, sizeof_field(struct rq, sd));
	DEFINE(RUST_LB_RQ_AVG_IDLE, offsetof(struct rq, avg_idle));
	DEFINE(RUST_LB_RQ_AVG_IDLE_SIZE, sizeof_field(struct rq, avg_idle));
	DEFINE(RUST_LB_SG_NEXT, offsetof(struct sched_group, next));
	DEFINE(RUST_LB_SG_NEXT_SIZE, sizeof_field(struct sched_group, next));
	DEFINE(RUST_LB_SG_GROUP_WEIGHT, offsetof(struct sched_group, group_weight));
	DEFINE(RUST_LB_SG_GROUP_WEIGHT_SIZE, sizeof_field(struct sched_group, group_weight));
	DEFINE(RUST_LB_SG_CORES, offsetof(struct sched_group, cores));
	DEFINE(RUST_LB_SG_CORES_SIZE, sizeof_field(struct sched_group, cores));
	return 0;
}
