// SPDX-License-Identifier: GPL-2.0
//! The report of the A/B experiment: JSONL of RESULT lines in; an mmtests
//! compare-kernels style table, a JSON summary and PNG plots out; and the
//! summary of tools/measure/scale's CPU-count sweep (`scale`).

pub mod cli;
pub mod cost;
pub mod headline;
pub mod input;
pub mod plot;
pub mod plot_runs;
pub mod scale;
pub mod schedstat;
pub mod stats;
pub mod summary;
pub mod table;
