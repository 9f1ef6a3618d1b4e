//! The boundary between the command processor and whatever runs a
//! dispatch's shader: the model's shader processor (`crate::sp`), or, in
//! tests of the command processor alone, something that records the
//! dispatches it is handed.

use crate::compute_dispatch::ComputeDispatch;
use crate::memory::AddressSpace;
use crate::report::ShaderFailure;
use crate::sp::SpStats;

/// Runs the compute dispatches the command processor launches.
pub trait ShaderCore: Send + Sync {
    /// Runs `dispatch` to completion against `memory` and says what it
    /// executed. `index` numbers the dispatch within its submit, for
    /// reports.
    fn run_compute(
        &self,
        dispatch: &ComputeDispatch,
        index: u32,
        memory: &AddressSpace,
    ) -> Result<SpStats, ShaderFailure>;
}
