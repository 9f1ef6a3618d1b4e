//! A render pass rendered bin by bin in GMEM, with or without a binning
//! pass first (`super::binning_pass`): the command stream the tiler's
//! decisions (`crate::tiling`) lead to.
//!
//! The CCU is written back and emptied first, and its colour cache moved
//! to the end of GMEM, out of the attachments' way (`parsnip_hw_state::ccu`).
//! Then, for each bin that meets the render area, as
//! Turnip's `*_gmem` streams do:
//!
//! 1. CP_SET_MARKER RM6_BIN_RENDER_START | USES_GMEM, and the bin: its
//!    size, window offsets and window scissor (`parsnip_hw_state::bin`);
//!    after a binning pass, its pipe's visibility stream and slot
//!    (CP_SET_BIN_DATA5_OFFSET) and the visibility override off; without
//!    one, the override was set once before the bins;
//! 2. the attachments that load loaded into GMEM, those that clear
//!    cleared there (blit events, scissored to the render area);
//! 3. the pass's draw stream, called as IB2s (it was recorded once, and
//!    programs the attachments' GMEM offsets with their memory);
//! 4. CP_SET_MARKER RM6_BIN_RESOLVE | USES_GMEM, and the attachments that
//!    store stored to memory (on a7xx the resolves closed by
//!    CCU_END_RESOLVE_GROUP).
//!
//! Then RM6_BIN_RENDER_END, the CCU switched back, and the window of a
//! sysmem pass, so that what follows the pass renders to memory.

use ash::vk;
use parsnip_hw_state::bin::{program_bin, program_sysmem_window, BinWindow, BIN_DWORDS};
use parsnip_hw_state::blit_event::{
    blit_event, BlitOp, BlitScissor, GmemSurface, MemorySurface, BLIT_EVENT_DWORDS,
};
use parsnip_hw_state::ccu::{
    ccu_mode_switch, program_ccu, CcuMode, CCU_CNTL_DWORDS, CCU_SWITCH_DWORDS,
};
use parsnip_hw_state::draw::{
    gmem_marker, set_marker, visibility_override, VISIBILITY_OVERRIDE_DWORDS,
};
use parsnip_hw_state::events::{call_ib, event, CALL_IB_DWORDS};
use parsnip_hw_state::vsc::{bin_stream, BIN_STREAM_DWORDS};
use parsnip_registers::enums::{A3xxMsaaSamples, A6xxMarker, VgtEventType};
use parsnip_registers::Chip;

use super::binning_pass::{stream_pitch, MAX_STREAM_BYTES};
use super::buffer::Recording;
use super::draw::view_surface;
use super::stream::Ib;
use crate::error::VkResult;
use crate::framebuffer::Framebuffer;
use crate::image::view::ImageView;
use crate::render_pass::RenderPass;
use crate::tiling::attachment_ops::AttachmentOps;
use crate::tiling::clear_value::gmem_clear;
use crate::tiling::PassTiling;

/// A render pass to render in bins.
pub struct GmemPass<'a> {
    pub pass: &'a RenderPass,
    pub framebuffer: &'a Framebuffer,
    pub area: vk::Rect2D,
    pub clears: &'a [vk::ClearValue],
    pub tiling: &'a PassTiling,
    pub ops: &'a [AttachmentOps],
    /// The pass's draw stream.
    pub draws: &'a [Ib],
    /// Run a binning pass first, for a stream of this many draws.
    pub binning: Option<u64>,
}

/// One attachment's blit events, built once for every bin.
struct AttachmentBlits {
    gmem: GmemSurface,
    memory: MemorySurface,
    load: bool,
    clear: Option<BlitOp>,
    store: bool,
}

fn msaa_samples(samples: u32) -> A3xxMsaaSamples {
    A3xxMsaaSamples(samples.max(1).trailing_zeros())
}

/// The aspect a draw writes of `view`: colour, or the depth plane (which
/// holds the interleaved stencil of D24S8).
fn main_aspect(view: &ImageView) -> vk::ImageAspectFlags {
    if view.format.is_depth_or_stencil() {
        vk::ImageAspectFlags::DEPTH
    } else {
        vk::ImageAspectFlags::COLOR
    }
}

impl GmemPass<'_> {
    fn blits(&self) -> VkResult<Vec<AttachmentBlits>> {
        let mut out = Vec::with_capacity(self.ops.len());
        for o in self.ops {
            let view = &self.framebuffer.attachments[o.index];
            let Some(base) = self.tiling.gmem.offsets[o.index] else {
                continue;
            };
            let (s, _, flags) = view_surface(view, main_aspect(view), 0);
            let gmem = GmemSurface {
                base,
                format: view.format.hw,
                samples: msaa_samples(self.pass.desc.attachments[o.index].samples.as_raw()),
                depth: view.format.is_depth_or_stencil(),
            };
            let memory = MemorySurface {
                base: s.iova,
                pitch: s.pitch,
                tile_mode: s.tile_mode,
                swap: s.swap,
                flags: flags.map(|f| (f.base, f.pitch)),
            };
            let clear = if o.clear.is_empty() {
                None
            } else {
                let Some(value) = self.clears.get(o.index) else {
                    eprintln!(
                        "parsnip: vkCmdBeginRenderPass: no clear value for attachment {}",
                        o.index
                    );
                    return Err(vk::Result::ERROR_UNKNOWN);
                };
                let Some(c) = gmem_clear(view.format, o.clear, value) else {
                    eprintln!(
                        "parsnip: vkCmdEndRenderPass: a GMEM clear of {:?} (the tiler should \
                         have chosen sysmem)",
                        view.format.vk
                    );
                    return Err(vk::Result::ERROR_UNKNOWN);
                };
                Some(BlitOp::Clear {
                    value: c.value,
                    mask: c.mask,
                })
            };
            out.push(AttachmentBlits {
                gmem,
                memory,
                load: o.load,
                clear,
                store: o.store,
            });
        }
        Ok(out)
    }

    /// The render area's pixels, inclusive.
    fn scissor(&self) -> BlitScissor {
        let (x, y) = (
            self.area.offset.x.max(0) as u32,
            self.area.offset.y.max(0) as u32,
        );
        BlitScissor {
            x0: x,
            y0: y,
            x1: x + self.area.extent.width.max(1) - 1,
            y1: y + self.area.extent.height.max(1) - 1,
        }
    }
}

impl Recording {
    /// Records `p` bin by bin into the command buffer's stream.
    pub(super) fn render_in_bins(&mut self, p: &GmemPass<'_>) -> VkResult<()> {
        if p.area.extent.width == 0 || p.area.extent.height == 0 {
            // No pixel to load, draw or store.
            return Ok(());
        }
        let blits = p.blits()?;
        let scissor = p.scissor();
        let scratch = self.device.internal.scratch_iova();
        let chip = self.cs.chip();
        let gpu = self.device.gpu.entry;
        let pipes = p.tiling.bins.pipes().len() as u32;
        let pitch = p.binning.and_then(|draws| {
            let pitch = stream_pitch(draws, pipes);
            if pitch.is_none() && self.device.debug.passes {
                eprintln!(
                    "parsnip: render pass: not binned after all: the visibility streams of \
                     {draws} draws would exceed {MAX_STREAM_BYTES} bytes"
                );
            }
            pitch
        });
        let streams = match pitch {
            Some(pitch) => Some(self.binning_pass(p, pitch)?),
            None => None,
        };
        let dwords = CCU_SWITCH_DWORDS + CCU_CNTL_DWORDS + VISIBILITY_OVERRIDE_DWORDS;
        self.cs.emit(dwords, |r| {
            ccu_mode_switch(r, scratch)?;
            program_ccu(r, gpu, CcuMode::Gmem)?;
            // Without a binning pass every bin draws every draw.
            visibility_override(r, streams.is_none())
        })?;
        for bin in p.tiling.bins.bins() {
            let meets_area = bin.x <= scissor.x1
                && bin.y <= scissor.y1
                && bin.x + bin.width > scissor.x0
                && bin.y + bin.height > scissor.y0;
            if !meets_area {
                continue;
            }
            let window = BinWindow {
                x: bin.x,
                y: bin.y,
                width: bin.width,
                height: bin.height,
            };
            self.cs.emit(2 + BIN_DWORDS, |r| {
                gmem_marker(r, A6xxMarker::RM6_BIN_RENDER_START)?;
                program_bin(r, &window)
            })?;
            if let Some(streams) = &streams {
                let at = p.bin_pipe(&bin);
                self.cs.emit(BIN_STREAM_DWORDS, |r| {
                    bin_stream(r, streams, at.pipe, at.slot, at.pipe_bins)
                })?;
            }
            for b in &blits {
                if b.load {
                    self.cs.emit(BLIT_EVENT_DWORDS, |r| {
                        blit_event(r, scissor, &b.gmem, BlitOp::Load(b.memory))
                    })?;
                }
                if let Some(clear) = b.clear {
                    self.cs.emit(BLIT_EVENT_DWORDS, |r| {
                        blit_event(r, scissor, &b.gmem, clear)
                    })?;
                }
            }
            for ib in p.draws {
                let iova = ib.bo.iova() + ib.offset;
                self.cs
                    .emit(CALL_IB_DWORDS, |r| call_ib(r, iova, ib.dwords))?;
            }
            self.cs
                .emit(2, |r| gmem_marker(r, A6xxMarker::RM6_BIN_RESOLVE))?;
            for b in blits.iter().filter(|b| b.store) {
                self.cs.emit(BLIT_EVENT_DWORDS, |r| {
                    blit_event(r, scissor, &b.gmem, BlitOp::Store(b.memory))
                })?;
            }
            if chip == Chip::A7xx {
                self.cs
                    .emit(2, |r| event(r, VgtEventType::CCU_END_RESOLVE_GROUP))?;
            }
        }
        let (w, h) = (p.framebuffer.width, p.framebuffer.height);
        let dwords = 2 + CCU_SWITCH_DWORDS + CCU_CNTL_DWORDS + BIN_DWORDS;
        self.cs.emit(dwords, |r| {
            set_marker(r, A6xxMarker::RM6_BIN_RENDER_END)?;
            ccu_mode_switch(r, scratch)?;
            program_ccu(r, gpu, CcuMode::Sysmem)?;
            program_sysmem_window(r, w, h)
        })
    }
}
