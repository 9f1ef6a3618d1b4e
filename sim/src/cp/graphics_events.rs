//! Events that drive the graphics units: the occlusion sample count
//! (ZPASS_DONE), the pipeline statistics counters (START/STOP_*_CTRS), and
//! the ones the model's sysmem rendering has nothing to do for.
//!
//! ZPASS_DONE writes the RB's running count of samples that passed the
//! depth and stencil tests, as 64 bits: on a6xx to RB_SAMPLE_COUNT_ADDR; on
//! a7xx CP_EVENT_WRITE7 with WRITE_SAMPLE_COUNT writes it to the packet's
//! address, or with SAMPLE_COUNT_END_OFFSET 16 bytes after it, and
//! WRITE_ACCUM_SAMPLE_COUNT_DIFF then adds that end value less the one at
//! the address to the 64 bits between them. That is the layout of Turnip's
//! occlusion query slot (tu_query_pool.cc: begin, result, end, one after
//! the other), whose begin and end events are exactly these.
//!
//! LRZ_CLEAR clears the LRZ unit's fast-clear bits and direction
//! ([`crate::lrz::clear_event`]). BLIT and
//! CCU_END_RESOLVE_GROUP are the resolve engine's (`resolve`).

use parsnip_registers::packets::CpEventWrite7Dw0;
use parsnip_registers::regs;

use super::CommandProcessor;
use crate::report::{GpuError, StreamProblem};

impl CommandProcessor<'_> {
    /// Runs graphics event `name`; `Ok(false)` when it is not one.
    pub(super) fn graphics_event(&mut self, name: &str) -> Result<bool, GpuError> {
        let c = &mut self.cp.counters;
        match name {
            "START_PRIMITIVE_CTRS" => c.vertex_running = true,
            "STOP_PRIMITIVE_CTRS" => c.vertex_running = false,
            "START_FRAGMENT_CTRS" => c.fragment_running = true,
            "STOP_FRAGMENT_CTRS" => c.fragment_running = false,
            "START_COMPUTE_CTRS" => c.compute_running = true,
            "STOP_COMPUTE_CTRS" => c.compute_running = false,
            "LRZ_CLEAR" => {
                crate::lrz::clear_event(self.regs, self.gpu.unit_memory())
                    .map_err(|e| self.draw_error(e))?;
            }
            "ZPASS_DONE" => {
                let at = self
                    .regs
                    .programmed::<regs::RbSampleCountAddr>()
                    .map_err(|e| self.register_error(e))?;
                self.write_u64(at, self.cp.counters.samples_passed)?;
            }
            "WRITE_PRIMITIVE_COUNTS" => {
                return Err(self.stream_error(StreamProblem::NotModelled {
                    what: "event WRITE_PRIMITIVE_COUNTS: transform feedback is not modelled".into(),
                }))
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// CP_EVENT_WRITE7's sample count writes (a7xx ZPASS_DONE).
    pub(super) fn sample_count_write7(
        &mut self,
        dw: CpEventWrite7Dw0,
        payload: &[u32],
    ) -> Result<(), GpuError> {
        self.need(payload, 3)?;
        let at = u64::from(payload[1]) | u64::from(payload[2]) << 32;
        let count = self.cp.counters.samples_passed;
        if dw.sample_count_end_offset {
            self.write_u64(at + 16, count)?;
        } else {
            self.write_u64(at, count)?;
        }
        if dw.write_accum_sample_count_diff {
            let begin = self.read_u64(at)?;
            let end = self.read_u64(at + 16)?;
            let sum = self.read_u64(at + 8)?;
            self.write_u64(at + 8, sum.wrapping_add(end.wrapping_sub(begin)))?;
        }
        Ok(())
    }
}
