//! CP_BLIT: the command processor hands the packet to the 2D engine
//! ([`crate::blit`]), which reads its own state from the registers, and
//! reports the engine's errors at the packet.

use parsnip_registers::enums::CpBlitCmd;
use parsnip_registers::packets::CpBlitDw0;

use super::CommandProcessor;
use crate::report::{GpuError, StreamProblem};
use crate::surface::SurfaceError;

impl CommandProcessor<'_> {
    pub(super) fn blit(&mut self, payload: &[u32]) -> Result<(), GpuError> {
        self.need(payload, 1)?;
        match CpBlitDw0::from_raw(payload[0]).op {
            CpBlitCmd::BLIT_OP_SCALE => {
                let dst_memory = self
                    .gpu
                    .ccu
                    .as_ref()
                    .map_or(&*self.gpu.memory, |c| c.part(crate::ccu::CcuPart::Color));
                let src_memory = self.gpu.unit_memory();
                crate::blit::scale(self.regs, src_memory, dst_memory, self.gpu.info)
                    .map_err(|e| self.surface_error(e))?;
                self.observe(crate::capture::Work::Blit2d(self.stats.blits_2d));
                self.stats.blits_2d += 1;
                Ok(())
            }
            op => Err(self.stream_error(StreamProblem::NotModelled {
                what: format!(
                    "CP_BLIT {}: the ops with coordinates in the packet are not used by a6xx/a7xx \
                     drivers, and what they do there is not public (BLIT_OP_SCALE is modelled)",
                    op.name(self.chip())
                        .map_or_else(|| format!("op {}", op.0), str::to_string)
                ),
            })),
        }
    }

    /// A surface unit's error, reported at the current packet.
    pub(crate) fn surface_error(&self, e: SurfaceError) -> GpuError {
        match e {
            SurfaceError::Fault(f) => self.fault(f),
            SurfaceError::Register(r) => self.register_error(r),
            SurfaceError::NotModelled(what) => {
                self.stream_error(StreamProblem::NotModelled { what })
            }
            SurfaceError::Invalid(why) | SurfaceError::Compression(why) => {
                self.stream_error(StreamProblem::BadState { why })
            }
        }
    }
}
