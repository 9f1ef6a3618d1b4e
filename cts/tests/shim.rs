//! The cases through the kernel back ends, on the userspace Adreno the shim
//! gives a process (`LD_PRELOAD=libparsnip_shim.so PARSNIP_SHIM=...`, no
//! `PARSNIP_SIM`): Parsnip opens what it takes for a real render node or
//! kgsl device, and every submit goes through the kernel interface's
//! ioctls to the model. Each case must pass and match lavapipe, as on the
//! in-process simulator.
//!
//! The whole suite runs through msm on the a660 and through kgsl on the
//! a660. On the a740 through msm, the cases whose kernel traffic differs
//! (semaphores, fences, events, queries, copies, indirect work, memory)
//! run: the rest differ from those only in the command streams, which the
//! in-process a740 run (tests/parsnip.rs) covers, and reach the kernel the
//! same way.

mod drivers;

use drivers::{lavapipe, parsnip, problems_against, run_cts_filtered, scratch, shim, Run};
use std::sync::OnceLock;

const KERNEL_TRAFFIC: &[&str] = &[
    "timeline_semaphores.*",
    "semaphores.*",
    "fences.*",
    "events.*",
    "queries.*",
    "copies.*",
    "indirect_dispatch.*",
    "memory.*",
    "barriers.across_command_buffers",
];

fn reference() -> &'static Run {
    static RUN: OnceLock<Run> = OnceLock::new();
    RUN.get_or_init(|| run_cts_filtered(&lavapipe(), &[], &scratch("shim_reference_lavapipe"), &[]))
}

fn matches_lavapipe_through_the_shim(shim_gpu: &str, filters: &[&str]) {
    let library = shim();
    let run = run_cts_filtered(
        &parsnip(),
        &[
            ("LD_PRELOAD", library.to_str().unwrap()),
            ("PARSNIP_SHIM", shim_gpu),
            (
                "PARSNIP_SHIM_CRASH_DIR",
                scratch(&format!("shim_{shim_gpu}_crashes"))
                    .to_str()
                    .unwrap(),
            ),
        ],
        &scratch(&format!("shim_{}", shim_gpu.replace(':', "_"))),
        filters,
    );
    let reference = reference();
    if filters.is_empty() {
        assert_eq!(run.results.len(), reference.results.len(), "{}", run.stdout);
    } else {
        assert!(
            !run.results.is_empty(),
            "the filters selected no case:\n{}",
            run.stdout
        );
    }
    let problems = problems_against(reference, &run);
    assert!(
        problems.is_empty(),
        "through the shim ({shim_gpu}):\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_case_passes_through_msm_on_the_shims_a660() {
    matches_lavapipe_through_the_shim("a660", &[]);
}

#[test]
fn every_case_passes_through_kgsl_on_the_shims_a660() {
    matches_lavapipe_through_the_shim("a660:kgsl", &[]);
}

#[test]
fn the_kernel_heavy_cases_pass_through_msm_on_the_shims_a740() {
    matches_lavapipe_through_the_shim("a740", KERNEL_TRAFFIC);
}
