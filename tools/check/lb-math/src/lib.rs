// SPDX-License-Identifier: GPL-2.0

//! Host build of `rust/kernel/sched/math.rs` (the kernel's load-balancing
//! arithmetic), with the lints the kernel applies to it, so that its tests
//! in `tests/` (and the unit tests in `math.rs` itself) can run with cargo.

#![cfg_attr(not(test), no_std)]
#![forbid(unsafe_code)]
#![warn(
    missing_docs,
    rust_2018_idioms,
    unreachable_pub,
    non_ascii_idents,
    clippy::all,
    clippy::float_arithmetic,
    clippy::ignored_unit_patterns,
    clippy::mut_mut,
    clippy::needless_bitwise_bool,
    clippy::undocumented_unsafe_blocks,
    rustdoc::missing_crate_level_docs,
    rustdoc::unescaped_backticks
)]

#[path = "../../../../rust/kernel/sched/math.rs"]
pub mod math;
