//! The boundary between the command processor and whatever runs a
//! dispatch's shader: the model's shader processor (`crate::sp`), or, in
//! tests of the command processor alone, something that records the
//! dispatches it is handed.

use crate::compute_dispatch::ComputeDispatch;
use crate::memory::AddressSpace;
use crate::report::ShaderFailure;

/// Runs the compute dispatches the command processor launches.
pub trait ShaderCore: Send + Sync {
    /// Runs `dispatch` to completion against `memory`. `index` numbers the
    /// dispatch within its submit, for reports.
    fn run_compute(
        &self,
        dispatch: &ComputeDispatch,
        index: u32,
        memory: &AddressSpace,
    ) -> Result<(), ShaderFailure>;
}

/// The shader core [`crate::Gpu::new`] uses until the model's shader
/// processor is part of the build: every dispatch is an error saying so.
pub(crate) struct NoShaderProcessor;

impl ShaderCore for NoShaderProcessor {
    fn run_compute(
        &self,
        _dispatch: &ComputeDispatch,
        _index: u32,
        _memory: &AddressSpace,
    ) -> Result<(), ShaderFailure> {
        Err(ShaderFailure::Error {
            message: "this build of the model has no shader processor: compute dispatches \
                      cannot run"
                .into(),
            at: None,
        })
    }
}
