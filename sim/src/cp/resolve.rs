//! The events that drive the resolve engine ([`crate::gmem::resolve`]):
//! BLIT runs one blit event on the RB_BLIT_* state, and
//! CCU_END_RESOLVE_GROUP (a7xx) closes a group of resolves the CCU may run
//! concurrently, which the model runs one at a time as they come, so the
//! group's end has nothing left to wait for.

use super::CommandProcessor;
use crate::report::GpuError;

/// Events [`CommandProcessor::resolve_event`] runs.
pub(super) const RESOLVE_EVENTS: &[&str] = &["BLIT", "CCU_END_RESOLVE_GROUP"];

impl CommandProcessor<'_> {
    /// Runs resolve event `name`; `Ok(false)` when it is not one.
    pub(super) fn resolve_event(&mut self, name: &str) -> Result<bool, GpuError> {
        match name {
            "BLIT" => {
                crate::gmem::resolve::blit_event(
                    self.regs,
                    self.gpu.unit_memory(),
                    &self.gpu.gmem,
                    self.gpu.info,
                )
                .map_err(|e| self.surface_error(e))?;
                self.observe(crate::capture::Work::BlitEvent(self.stats.blit_events));
                self.stats.blit_events += 1;
                Ok(true)
            }
            "CCU_END_RESOLVE_GROUP" => Ok(true),
            _ => Ok(false),
        }
    }
}
