//! The cases on lavapipe, the reference driver: each passes (or, for the few
//! lavapipe lacks a feature for, reports NotSupported), and a second run
//! writes the same exact outputs, so outputs can be compared across drivers.

mod drivers;

use drivers::{lavapipe, run_cts, scratch, Run};
use parsnip_cts::cases;
use parsnip_cts::results::{compare_outputs, Status};
use std::sync::OnceLock;

/// Cases lavapipe (Mesa 22.3) cannot run, and why.
const LAVAPIPE_LACKS: &[(&str, &str)] = &[
    (
        "queries.occlusion_across_secondaries",
        "lavapipe 22.3 has no inheritedQueries",
    ),
    (
        "multisample.two_samples_clears",
        "lavapipe offers 1 and 4 samples, not 2",
    ),
    (
        "pipelines.executable_properties",
        "lavapipe 22.3 has no VK_KHR_pipeline_executable_properties",
    ),
    (
        "markers.compute_and_transfer",
        "lavapipe 22.3 has no VK_AMD_buffer_marker",
    ),
    (
        "markers.graphics",
        "lavapipe 22.3 has no VK_AMD_buffer_marker",
    ),
    // Mesa's headless WSI came after 22.3.
    (
        "presentation.headless_surface",
        "lavapipe 22.3 has no VK_EXT_headless_surface",
    ),
    (
        "presentation.clear_and_present",
        "lavapipe 22.3 has no VK_EXT_headless_surface",
    ),
    (
        "presentation.acquire_until_none_left",
        "lavapipe 22.3 has no VK_EXT_headless_surface",
    ),
    (
        "presentation.capabilities2",
        "lavapipe 22.3 has no VK_EXT_headless_surface",
    ),
    (
        "presentation.device_group_queries",
        "lavapipe 22.3 has no VK_EXT_headless_surface",
    ),
    (
        "presentation.image_on_swapchain_memory",
        "lavapipe 22.3 has no VK_EXT_headless_surface",
    ),
    ("dynamic_state.depth_bounds", "lavapipe has no depthBounds"),
    (
        "descriptor_indexing.nonuniform_storage_buffers",
        "lavapipe 22.3 offers none of the descriptor-indexing features",
    ),
    (
        "descriptor_indexing.nonuniform_images_and_texel_buffers",
        "lavapipe 22.3 offers none of the descriptor-indexing features",
    ),
];

fn first_run() -> &'static Run {
    static RUN: OnceLock<Run> = OnceLock::new();
    RUN.get_or_init(|| run_cts(&lavapipe(), &[], &scratch("lavapipe_first")))
}

#[test]
fn every_case_passes_on_lavapipe() {
    let run = first_run();
    let all = cases::all();
    assert_eq!(run.results.len(), all.len(), "{}", run.stdout);
    let mut wrong = Vec::new();
    for case in &all {
        let lacking = LAVAPIPE_LACKS.iter().any(|(name, _)| *name == case.name);
        let want = if lacking {
            Status::NotSupported
        } else {
            Status::Pass
        };
        if run.status(case.name) != Some(want) {
            wrong.push(run.line(case.name).to_owned());
        }
    }
    assert!(wrong.is_empty(), "on lavapipe:\n{}", wrong.join("\n"));
    assert!(
        run.succeeded,
        "parsnip-cts exited with failure:\n{}",
        run.stdout
    );
}

#[test]
fn lavapipe_outputs_repeat_exactly() {
    let first = first_run();
    let second = run_cts(&lavapipe(), &[], &scratch("lavapipe_second"));
    let mut differences = Vec::new();
    for (case, status) in &first.results {
        if *status == Status::Pass {
            if let Err(e) = compare_outputs(&first.out, &second.out, case) {
                differences.push(e);
            }
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}
