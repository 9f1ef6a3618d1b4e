//! Parsnip's conformance cases, run through the Khronos Vulkan loader.
//!
//! Each case ([`case::Case`]) drives one device through a [`harness::Harness`]
//! (instance with the validation layer, device, compute queue, helpers) and
//! checks the buffers it reads back against values computed on the CPU. The
//! `parsnip-cts` binary runs the cases on the driver whose ICD manifest it is
//! given, each case in a process of its own, and writes deqp-runner style
//! results and every case's output buffers, so that two drivers' runs can be
//! compared byte for byte.
//!
//! ```no_run
//! use parsnip_cts::{cases, runner};
//! // In a process whose VK_DRIVER_FILES names the driver to test:
//! for case in cases::all() {
//!     let report = runner::run_in_process(&case);
//!     println!("{}: {}", case.name, report.outcome);
//! }
//! ```

pub mod bytes;
pub mod case;
pub mod cases;
pub mod harness;
pub mod isolation;
pub mod results;
pub mod runner;
pub mod shaders;
pub mod validation;
