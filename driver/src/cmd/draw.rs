//! Graphics recording: binding graphics pipelines, vertex and index
//! buffers, the viewport and scissor, and the draws of a render pass.
//!
//! A draw programs only what changed since the last one, each from its
//! own source (`parsnip_hw_state::graphics`): the pipeline's state, built
//! at its creation, by pointing the pipeline draw-state group at it
//! (CP_SET_DRAW_STATE, run by the CP before the draw); the subpass's
//! framebuffer (its attachments' memory) once a subpass; the viewport and
//! scissor, the vertex buffers and the graphics bind point's descriptor
//! sets (SP_BINDLESS_BASE), when set. Then the draw's offsets and
//! CP_DRAW_INDX_OFFSET. Draws are recorded into the pass's stream, which
//! the pass's end runs in sysmem (`pass.rs`).

use std::sync::Arc;

use ash::vk;
use parsnip_hw_state::descriptors::BindPoint;
use parsnip_hw_state::draw::{
    draw_auto, draw_indexed, draw_indexed_indirect, draw_indirect, draw_indirect_count,
    draw_offsets, IndexBuffer, IndirectCount, Primitive,
};
use parsnip_hw_state::graphics::{
    program_framebuffer, program_vertex_buffer, program_viewport, ColorBuffer, DepthBuffer,
    FlagBuffer, Framebuffer, GmemOffsets, VertexBuffer, Viewport,
};
use parsnip_registers::enums::{A4xxIndexSize, A6xxDepthFormat};

use super::blit2d::Surface;
use super::buffer::Recording;
use super::descriptor_bindings::{DescriptorBindings, EMIT_DWORDS as DESCRIPTOR_DWORDS};
use super::dispatch::copy_push_constants;
use super::draw_state::{set_group, StateGroup, SET_GROUP_DWORDS};
use super::dynamic_state::DynamicRecording;
use super::image_surface::{image_surface, sample_format};
use super::load_state::{stage_consts_header, LoadStage, LOAD_STATE_DWORDS};
use crate::buffer::Buffer;
use crate::error::VkResult;
use crate::image::view::ImageView;
use crate::pipeline::binary::DriverParam;
use crate::pipeline::graphics::{depth_format, GraphicsPipeline};

/// Vertex buffer bindings (VFD_FETCH has 32 entries, a6xx.xml).
pub const MAX_VERTEX_BUFFERS: usize = 32;

/// Every vertex buffer slot, as a mask of one bit a slot.
const ALL_VERTEX_BUFFERS: u32 = u32::MAX;

/// The mask of slots `0..n`.
fn first_slots(n: u32) -> u32 {
    ALL_VERTEX_BUFFERS
        .checked_shl(n)
        .map_or(ALL_VERTEX_BUFFERS, |above| !above)
}

/// A bound vertex or index buffer: address and bytes from it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Bound {
    iova: u64,
    size: u64,
}

/// The graphics state a command buffer has bound.
#[derive(Default)]
pub struct GraphicsState {
    pipeline: Option<Arc<GraphicsPipeline>>,
    vertex_buffers: [Option<Bound>; MAX_VERTEX_BUFFERS],
    index: Option<(Bound, vk::IndexType)>,
    viewport: Option<[f32; 6]>,
    scissor: Option<[u32; 4]>,
    /// The rest of the dynamic state.
    pub dynamic: DynamicRecording,
    /// What the stream no longer has programmed.
    pipeline_dirty: bool,
    /// The vertex buffer slots to program again, a bit each: a bind that
    /// changes one buffer programs that one.
    vertex_buffers_dirty: u32,
    viewport_dirty: bool,
    /// The draw offsets (VFD_INDEX_OFFSET, VFD_INSTANCE_START_OFFSET) the
    /// stream has programmed, if known.
    offsets: Option<(i32, u32)>,
    /// Whether the stages' const files hold the push constants and, for a
    /// pipeline whose shaders read them, the draw parameters of the
    /// bases kept here: then a draw with the same bases loads nothing.
    consts_loaded: Option<Option<(i32, u32)>>,
    /// The bound pipeline's vertex and fragment const loads' headers,
    /// built at its first draw.
    const_headers: Option<[[u32; LOAD_STATE_DWORDS]; 2]>,
    /// Set when a subpass begins: its attachments are programmed at its
    /// first draw.
    pub framebuffer_dirty: bool,
    /// The view of a multiview subpass the framebuffer and the const files
    /// are programmed for (0 outside multiview): the layer drawn and
    /// gl_ViewIndex.
    view: u32,
    /// The descriptor sets of the graphics bind point.
    pub descriptors: DescriptorBindings,
}

impl GraphicsState {
    pub fn reset(&mut self) {
        // The push descriptors' bank keeps its memory.
        let mut descriptors = std::mem::take(&mut self.descriptors);
        descriptors.reset();
        *self = GraphicsState {
            descriptors,
            ..GraphicsState::default()
        };
    }

    /// After commands that may have programmed anything (a secondary's).
    pub fn invalidate(&mut self) {
        self.pipeline_dirty = true;
        self.vertex_buffers_dirty = ALL_VERTEX_BUFFERS;
        self.viewport_dirty = true;
        self.framebuffer_dirty = true;
        self.descriptors.invalidate();
        self.dynamic.invalidate();
        self.offsets = None;
        self.consts_loaded = None;
    }

    /// After `vkCmdPushConstants`: the graphics stages load them again.
    pub fn push_constants_changed(&mut self) {
        self.consts_loaded = None;
    }
}

fn fail<T>(command: &str, what: impl std::fmt::Display) -> VkResult<T> {
    eprintln!("parsnip: {command}: {what}");
    Err(vk::Result::ERROR_UNKNOWN)
}

/// A buffer's address at `offset` and the bytes after it.
fn bound(buffer: &Buffer, offset: u64, command: &str) -> VkResult<Bound> {
    if buffer.binding().is_none() || offset > buffer.size {
        return fail(
            command,
            "a buffer without memory, or an offset past its end",
        );
    }
    Ok(Bound {
        iova: buffer.iova(offset),
        size: buffer.size - offset,
    })
}

/// The surface a draw writes of `view`'s `aspect`, its layer pitch and
/// its flag buffer: the view's first level, at its `layer` (a multiview
/// subpass's view; there is no layered rendering yet).
pub(super) fn view_surface(
    view: &ImageView,
    aspect: vk::ImageAspectFlags,
    layer: u32,
) -> (Surface, u64, Option<FlagBuffer>) {
    let range = view.desc.range;
    let fmt = sample_format(view.format);
    let s = image_surface(
        &view.image,
        aspect,
        range.base_mip_level,
        range.base_array_layer + layer,
        &fmt,
        None,
    );
    let flags = s.flags.map(|(base, pitch)| FlagBuffer {
        base,
        pitch,
        array_pitch: 0,
    });
    (s, view.image.plane(aspect).layout.layer_size, flags)
}

fn color_buffer(view: &ImageView, layer: u32) -> ColorBuffer {
    let (s, array_pitch, flags) = view_surface(view, vk::ImageAspectFlags::COLOR, layer);
    ColorBuffer {
        base: s.iova,
        pitch: s.pitch,
        array_pitch,
        format: view.format.hw,
        tile_mode: s.tile_mode,
        swap: s.swap,
        flags,
    }
}

fn depth_buffer(view: &ImageView, format: A6xxDepthFormat, layer: u32) -> DepthBuffer {
    let (s, array_pitch, flags) = view_surface(view, vk::ImageAspectFlags::DEPTH, layer);
    DepthBuffer {
        base: s.iova,
        pitch: s.pitch,
        array_pitch,
        format,
        tile_mode: s.tile_mode,
        flags,
    }
}

/// Dwords a draw's state may take at most: the framebuffer (8 colour
/// buffers of 7 registers and the depth buffer's, 3 dwords each at most),
/// the viewport (10 registers), 32 vertex buffers of 3 registers, the
/// group, the offsets and the draw.
const FRAMEBUFFER_DWORDS: usize = 3 * (3 + 8 * 7 + 6);
const VIEWPORT_DWORDS: usize = 3 * 10;
const VERTEX_BUFFER_DWORDS: usize = 3 * 3;
const DRAW_DWORDS: usize = 2 * 3 + 8;

impl Recording {
    /// Programs the current subpass's attachments (at the layer of the
    /// view being drawn), in the primary that renders the pass (a
    /// secondary's draws use what the primary programmed before running
    /// them).
    pub fn emit_framebuffer(&mut self) -> VkResult<()> {
        self.graphics.framebuffer_dirty = false;
        let layer = self.graphics.view;
        let Some(pass) = self.pass.as_deref() else {
            return Ok(());
        };
        let subpass = &pass.pass.desc.subpasses[pass.subpass as usize];
        let views = &pass.framebuffer.attachments;
        let mut fb = Framebuffer {
            width: pass.framebuffer.width,
            height: pass.framebuffer.height,
            colors: Vec::new(),
            depth: None,
            gmem: GmemOffsets::default(),
        };
        for r in &subpass.colors {
            let Some(a) = r.attachment else {
                return fail(
                    "vkCmdBeginRenderPass",
                    "unused colour attachments are not supported yet",
                );
            };
            fb.colors.push(color_buffer(&views[a as usize], layer));
            fb.gmem.colors.push(pass.gmem_offset(a));
        }
        if let Some(a) = subpass.depth_stencil.and_then(|r| r.attachment) {
            let format = depth_format(pass.pass.desc.attachments[a as usize].format)?;
            fb.depth = Some(depth_buffer(&views[a as usize], format, layer));
            fb.gmem.depth = pass.gmem_offset(a);
        }
        self.cs
            .emit(FRAMEBUFFER_DWORDS, |r| program_framebuffer(r, &fb))
    }

    /// `vkCmdBindPipeline(GRAPHICS)`.
    pub fn bind_graphics_pipeline(&mut self, pipeline: Arc<GraphicsPipeline>) -> VkResult<()> {
        let g = &mut self.graphics;
        if let Some(v) = pipeline.viewport {
            g.viewport = Some(v);
            g.viewport_dirty = true;
        }
        if let Some(s) = pipeline.scissor {
            g.scissor = Some(s);
            g.viewport_dirty = true;
        }
        // The strides (unless dynamic) and the const layouts are the pipeline's.
        g.vertex_buffers_dirty = ALL_VERTEX_BUFFERS;
        g.consts_loaded = None;
        g.const_headers = None;
        g.pipeline_dirty = true;
        g.dynamic.bind(&pipeline);
        g.pipeline = Some(pipeline.clone());
        self.keep(pipeline);
        Ok(())
    }

    /// One binding of `vkCmdBindVertexBuffers` (`size` `VK_WHOLE_SIZE`,
    /// `stride` `None`) or `vkCmdBindVertexBuffers2`: `buffer` from
    /// `offset`, of `size` bytes (`VK_WHOLE_SIZE`: to its end), and the
    /// binding's stride if given (for pipelines whose strides are dynamic).
    /// Both commands bind through this one binding at a time, so neither
    /// collects its bindings first. The buffer is not kept: the draws read
    /// its address, recorded here, and its memory is the application's to
    /// keep until the command buffer has run (Vulkan's vkFreeMemory and
    /// vkDestroyBuffer valid usage); binding what is bound programs nothing
    /// again.
    #[inline]
    pub fn bind_vertex_buffer(
        &mut self,
        command: &str,
        slot: u32,
        buffer: &Buffer,
        offset: u64,
        size: u64,
        stride: Option<u64>,
    ) -> VkResult<()> {
        let slot = slot as usize;
        if slot >= MAX_VERTEX_BUFFERS {
            return fail(command, "bindings past the 32 there are");
        }
        let mut b = bound(buffer, offset, command)?;
        if size != vk::WHOLE_SIZE {
            if size > b.size {
                return fail(command, "a size past the end of the buffer");
            }
            b.size = size;
        }
        if let Some(stride) = stride {
            let Ok(stride) = u32::try_from(stride) else {
                return fail(command, "a stride past 32 bits");
            };
            let current = &mut self.graphics.dynamic.values.strides[slot];
            if *current != stride {
                *current = stride;
                self.graphics.vertex_buffers_dirty |= 1 << slot;
            }
        }
        let entry = &mut self.graphics.vertex_buffers[slot];
        if *entry != Some(b) {
            *entry = Some(b);
            self.graphics.vertex_buffers_dirty |= 1 << slot;
        }
        Ok(())
    }

    /// `vkCmdBindIndexBuffer`.
    pub fn bind_index_buffer(
        &mut self,
        buffer: Arc<Buffer>,
        offset: u64,
        ty: vk::IndexType,
    ) -> VkResult<()> {
        let command = "vkCmdBindIndexBuffer";
        if !matches!(ty, vk::IndexType::UINT16 | vk::IndexType::UINT32) {
            return fail(command, format!("index type {ty:?} is not supported"));
        }
        let b = bound(&buffer, offset, command)?;
        self.graphics.index = Some((b, ty));
        self.keep(buffer);
        Ok(())
    }

    /// `vkCmdSetViewport`: viewport 0 alone.
    pub fn set_viewport(&mut self, first: u32, viewports: &[vk::Viewport]) -> VkResult<()> {
        if first != 0 || viewports.len() > 1 {
            return fail(
                "vkCmdSetViewport",
                "viewports other than 0 are not supported yet",
            );
        }
        if let Some(v) = viewports.first() {
            self.graphics.viewport = Some(crate::pipeline::fixed_function::viewport(v));
            self.graphics.viewport_dirty = true;
        }
        Ok(())
    }

    /// `vkCmdSetScissor`: scissor 0 alone.
    pub fn set_scissor(&mut self, first: u32, scissors: &[vk::Rect2D]) -> VkResult<()> {
        if first != 0 || scissors.len() > 1 {
            return fail(
                "vkCmdSetScissor",
                "scissors other than 0 are not supported yet",
            );
        }
        if let Some(s) = scissors.first() {
            self.graphics.scissor = Some(crate::pipeline::fixed_function::scissor(s));
            self.graphics.viewport_dirty = true;
        }
        Ok(())
    }

    /// `vkCmdDraw`.
    pub fn draw(
        &mut self,
        vertices: u32,
        instances: u32,
        first_vertex: u32,
        first_instance: u32,
    ) -> VkResult<()> {
        let command = "vkCmdDraw";
        self.for_each_view(command, |rec| {
            let primitive = rec.draw_state(command, 32)?;
            if vertices == 0 || instances == 0 {
                return Ok(());
            }
            let bases = (first_vertex as i32, first_instance);
            rec.emit_consts(command, Some(bases))?;
            let offsets = rec.offsets_to_program(bases);
            rec.count_draws(1);
            rec.cs.emit(DRAW_DWORDS, |r| {
                if let Some((vertex, instance)) = offsets {
                    draw_offsets(r, vertex, instance)?;
                }
                draw_auto(r, primitive, vertices, instances)
            })
        })
    }

    /// Runs `draw` once for each view of the current subpass's view mask,
    /// in ascending order, with the attachments programmed at that view's
    /// layer and the view in the const files (gl_ViewIndex); once, as
    /// view 0, outside multiview. Multiview is rendered so, one pass over
    /// the draws per view, rather than by the hardware's own per-view
    /// position outputs.
    fn for_each_view(
        &mut self,
        command: &str,
        mut draw: impl FnMut(&mut Self) -> VkResult<()>,
    ) -> VkResult<()> {
        let mask = self.current_subpass().map_or(0, |(s, _)| s.view_mask);
        if mask == 0 {
            self.select_view(0);
            return draw(self);
        }
        if self.pass.is_none() {
            return fail(
                command,
                "draws of a multiview subpass in a secondary command buffer are not \
                 supported yet",
            );
        }
        let mut left = mask;
        while left != 0 {
            self.select_view(left.trailing_zeros());
            left &= left - 1;
            draw(self)?;
        }
        Ok(())
    }

    /// Makes `view` the one the next draw renders: its layer programmed
    /// and its index loaded when it is not the one the stream has.
    fn select_view(&mut self, view: u32) {
        let g = &mut self.graphics;
        if g.view != view {
            g.view = view;
            g.framebuffer_dirty = true;
            g.consts_loaded = None;
        }
    }

    /// `vkCmdDrawIndexed`.
    pub fn draw_indexed(
        &mut self,
        indices: u32,
        instances: u32,
        first_index: u32,
        vertex_offset: i32,
        first_instance: u32,
    ) -> VkResult<()> {
        let command = "vkCmdDrawIndexed";
        let Some((b, ty)) = self.graphics.index else {
            return fail(command, "no index buffer is bound");
        };
        let (buffer, bits) = index_buffer(b, ty);
        self.for_each_view(command, |rec| {
            let primitive = rec.draw_state(command, bits)?;
            if indices == 0 || instances == 0 {
                return Ok(());
            }
            let bases = (vertex_offset, first_instance);
            rec.emit_consts(command, Some(bases))?;
            let offsets = rec.offsets_to_program(bases);
            rec.count_draws(1);
            rec.cs.emit(DRAW_DWORDS + 4, |r| {
                if let Some((vertex, instance)) = offsets {
                    draw_offsets(r, vertex, instance)?;
                }
                draw_indexed(r, primitive, buffer, first_index, indices, instances)
            })
        })
    }

    /// `vkCmdDrawIndirect` (`indexed` false) and `vkCmdDrawIndexedIndirect`:
    /// `count` draws whose commands are `stride` bytes apart from `offset`
    /// in `buffer`, each one packet the CP reads its command for (it sets
    /// the draw's offsets from it too).
    pub fn draw_indirect(
        &mut self,
        indexed: bool,
        buffer: Arc<Buffer>,
        offset: u64,
        count: u32,
        stride: u32,
    ) -> VkResult<()> {
        let command = if indexed {
            "vkCmdDrawIndexedIndirect"
        } else {
            "vkCmdDrawIndirect"
        };
        self.for_each_view(command, |rec| {
            let (b, primitive, indices) =
                rec.indirect_draw_state(command, indexed, buffer.clone(), offset, count, stride)?;
            rec.count_draws(count);
            for i in 0..count {
                let at = b.iova + u64::from(i) * u64::from(stride);
                rec.cs.emit(DRAW_DWORDS, |r| match indices {
                    Some(ib) => draw_indexed_indirect(r, primitive, ib, at),
                    None => draw_indirect(r, primitive, at),
                })?;
            }
            Ok(())
        })
    }

    /// `vkCmdDrawIndirectCount` (`indexed` false) and
    /// `vkCmdDrawIndexedIndirectCount`: as [`Self::draw_indirect`], the
    /// number of draws the dword at `count_offset` in `count_buffer` when
    /// the CP runs it, at most `max_draws`. One CP_DRAW_INDIRECT_MULTI,
    /// which reads the count itself.
    #[allow(clippy::too_many_arguments)]
    pub fn draw_indirect_count(
        &mut self,
        indexed: bool,
        buffer: Arc<Buffer>,
        offset: u64,
        count_buffer: Arc<Buffer>,
        count_offset: u64,
        max_draws: u32,
        stride: u32,
    ) -> VkResult<()> {
        let command = if indexed {
            "vkCmdDrawIndexedIndirectCount"
        } else {
            "vkCmdDrawIndirectCount"
        };
        if count_offset + 4 > count_buffer.size {
            return fail(command, "the draw count is past the end of its buffer");
        }
        let counter = bound(&count_buffer, count_offset, command)?;
        self.keep(count_buffer);
        self.for_each_view(command, |rec| {
            let (b, primitive, indices) = rec.indirect_draw_state(
                command,
                indexed,
                buffer.clone(),
                offset,
                max_draws,
                stride,
            )?;
            if max_draws == 0 {
                return Ok(());
            }
            rec.count_draws(max_draws);
            let draws = IndirectCount {
                commands: b.iova,
                stride,
                count: counter.iova,
                max_draws,
            };
            rec.cs.emit(DRAW_DWORDS + 8, |r| {
                draw_indirect_count(r, primitive, indices, draws)
            })
        })
    }

    /// `n` more draws in the pass's stream, each a dword of every
    /// visibility stream a binning pass writes.
    fn count_draws(&mut self, n: u32) {
        if let Some(p) = self.pass.as_deref_mut() {
            p.draws += u64::from(n);
        }
    }

    /// What every indirect draw programs and checks before its packets:
    /// `draws` commands `stride` apart from `offset` in `buffer`, the
    /// address of the first, the primitive type and (`indexed`) the index
    /// buffer.
    fn indirect_draw_state(
        &mut self,
        command: &str,
        indexed: bool,
        buffer: Arc<Buffer>,
        offset: u64,
        draws: u32,
        stride: u32,
    ) -> VkResult<(Bound, Primitive, Option<IndexBuffer>)> {
        let command_bytes = if indexed { 20 } else { 16 };
        let last = u64::from(draws.saturating_sub(1)) * u64::from(stride);
        if draws > 0 && offset + last + command_bytes > buffer.size {
            return fail(command, "draw commands past the end of the buffer");
        }
        let b = bound(&buffer, offset, command)?;
        self.keep(buffer);
        let indices = if indexed {
            let Some((ib, ty)) = self.graphics.index else {
                return fail(command, "no index buffer is bound");
            };
            Some(index_buffer(ib, ty))
        } else {
            None
        };
        let bits = indices.map_or(32, |(_, bits)| bits);
        let primitive = self.draw_state(command, bits)?;
        let indices = indices.map(|(ib, _)| ib);
        self.emit_consts(command, None)?;
        // The CP sets the offsets from each command.
        self.graphics.offsets = None;
        Ok((b, primitive, indices))
    }

    /// The draw offsets a draw with `bases` must program: none when the
    /// stream has them already.
    #[inline]
    fn offsets_to_program(&mut self, bases: (i32, u32)) -> Option<(i32, u32)> {
        if self.graphics.offsets == Some(bases) {
            return None;
        }
        self.graphics.offsets = Some(bases);
        Some(bases)
    }

    /// Loads each stage's const file (push constants, and the draw's base
    /// vertex and instance where the shader reads them) for a draw of the
    /// bound pipeline, unless it holds them already; `None` for an
    /// indirect draw, whose bases are in memory. The const image is built
    /// where it goes, in the stream. Inline: most draws load nothing, and
    /// only find that out here.
    #[inline]
    fn emit_consts(&mut self, command: &str, bases: Option<(i32, u32)>) -> VkResult<()> {
        let pipeline = self
            .graphics
            .pipeline
            .as_deref()
            .expect("draw_state checked");
        let reads_bases = pipeline.reads_draw_bases;
        let key = if reads_bases { bases } else { None };
        if self.graphics.consts_loaded == Some(key) {
            return Ok(());
        }
        self.load_consts(command, bases, reads_bases, key)
    }

    /// [`Self::emit_consts`]'s loads, when the const files lack what the
    /// draw needs (`key`: the bases they are loaded for).
    #[inline(never)]
    fn load_consts(
        &mut self,
        command: &str,
        bases: Option<(i32, u32)>,
        reads_bases: bool,
        key: Option<(i32, u32)>,
    ) -> VkResult<()> {
        let pipeline = self
            .graphics
            .pipeline
            .as_deref()
            .expect("draw_state checked");
        if reads_bases && bases.is_none() {
            return fail(
                command,
                "shaders reading gl_BaseVertex, gl_BaseInstance or gl_InstanceIndex \
                 in indirect draws are not supported yet",
            );
        }
        let (base_vertex, base_instance) = bases.unwrap_or_default();
        let view = self.graphics.view;
        let stages = [
            (LoadStage::Vertex, &pipeline.vs_consts),
            (LoadStage::Fragment, &pipeline.fs_consts),
        ];
        let image_dwords = |dwords: u32| (dwords as usize).next_multiple_of(4);
        let headers = match self.graphics.const_headers {
            Some(h) => h,
            None => {
                let mut h = [[0; LOAD_STATE_DWORDS]; 2];
                for (out, (stage, consts)) in h.iter_mut().zip(&stages) {
                    *out = stage_consts_header(*stage, image_dwords(consts.dwords))?;
                }
                *self.graphics.const_headers.insert(h)
            }
        };
        let push = &self.compute.push_constants;
        for ((_, consts), header) in stages.iter().zip(&headers) {
            if consts.dwords == 0 {
                continue;
            }
            let dwords = image_dwords(consts.dwords);
            self.cs.emit(LOAD_STATE_DWORDS + dwords, |r| {
                r.take(LOAD_STATE_DWORDS).copy_from_slice(header);
                let image = r.take(dwords);
                image.fill(0);
                copy_push_constants(image, consts, push);
                for (param, dword) in &consts.driver_params {
                    let value = match param {
                        DriverParam::BaseVertex => base_vertex as u32,
                        DriverParam::BaseInstance => base_instance,
                        DriverParam::ViewIndex => view,
                        // A graphics stage reads no dispatch parameters.
                        DriverParam::NumWorkgroups(_) | DriverParam::BaseWorkgroup(_) => 0,
                    };
                    if let Some(slot) = image.get_mut(*dword as usize) {
                        *slot = value;
                    }
                }
                Ok(())
            })?;
        }
        self.graphics.consts_loaded = Some(key);
        Ok(())
    }

    /// Programs what changed before a draw of the bound pipeline with
    /// `index_bits`-bit indices (32 without); the primitive type, with
    /// the draw obeying the visibility stream.
    #[inline]
    fn draw_state(&mut self, command: &str, index_bits: u32) -> VkResult<Primitive> {
        let Some((subpass, _)) = self.current_subpass() else {
            return fail(command, "draws outside a render pass");
        };
        let Some(pipeline) = self.graphics.pipeline.as_deref() else {
            return fail(command, "no graphics pipeline is bound");
        };
        if subpass.colors.len() != pipeline.color_count as usize
            || subpass.depth_stencil.and_then(|r| r.attachment).is_some() != pipeline.has_depth
        {
            return fail(command, "the pipeline is not of this subpass");
        }
        let g = &self.graphics;
        let changed = !self.pending.is_empty()
            || g.framebuffer_dirty
            || g.viewport_dirty
            || g.vertex_buffers_dirty != 0
            || g.descriptors.is_dirty()
            || g.pipeline_dirty
            || g.dynamic.needs_emit(index_bits);
        if changed {
            self.emit_changed_state(command, index_bits)?;
        }
        // Every draw is a render pass's: a bin may skip it.
        Ok(Primitive::in_pass(self.graphics.dynamic.values.topology))
    }

    /// Programs what [`Self::draw_state`] found changed, out of line: a
    /// draw after a draw changes nothing.
    #[inline(never)]
    fn emit_changed_state(&mut self, command: &str, index_bits: u32) -> VkResult<()> {
        self.flush_pending()?;
        if self.graphics.framebuffer_dirty {
            self.emit_framebuffer()?;
        }
        if self.graphics.viewport_dirty {
            let (Some(viewport), Some(scissor)) = (self.graphics.viewport, self.graphics.scissor)
            else {
                return fail(command, "no viewport or no scissor is set");
            };
            let v = Viewport { viewport, scissor };
            self.cs.emit(VIEWPORT_DWORDS, |r| program_viewport(r, &v))?;
            self.graphics.viewport_dirty = false;
        }
        if self.graphics.vertex_buffers_dirty != 0 {
            let g = &self.graphics;
            let pipeline = g.pipeline.as_deref().expect("checked above");
            // The pipeline's fetch slots: a slot past them is programmed
            // when a pipeline that fetches it is bound (which marks all).
            let n = pipeline.fetch_slots.min(MAX_VERTEX_BUFFERS as u32);
            let slots = g.vertex_buffers_dirty & first_slots(n);
            self.cs
                .emit(VERTEX_BUFFER_DWORDS * slots.count_ones() as usize, |r| {
                    let mut left = slots;
                    while left != 0 {
                        let slot = left.trailing_zeros();
                        left &= left - 1;
                        let b = g.vertex_buffers[slot as usize].unwrap_or_default();
                        let buffer = VertexBuffer {
                            base: b.iova,
                            size: b.size.min(u64::from(u32::MAX)) as u32,
                            stride: g.dynamic.values.strides[slot as usize],
                        };
                        program_vertex_buffer(r, slot, &buffer)?;
                    }
                    Ok(())
                })?;
            self.graphics.vertex_buffers_dirty = 0;
        }
        if self.graphics.descriptors.is_dirty() {
            let sets = &mut self.graphics.descriptors;
            self.cs
                .emit(DESCRIPTOR_DWORDS, |r| sets.emit(r, BindPoint::Graphics))?;
        }
        if self.graphics.pipeline_dirty {
            let ib = self
                .graphics
                .pipeline
                .as_deref()
                .expect("checked above")
                .state;
            self.cs.emit(SET_GROUP_DWORDS, |r| {
                set_group(r, StateGroup::GraphicsPipeline, ib, false)
            })?;
            self.graphics.pipeline_dirty = false;
        }
        if self.graphics.dynamic.needs_emit(index_bits) {
            let pipeline = self.graphics.pipeline.clone().expect("checked above");
            self.emit_dynamic(&pipeline, index_bits)?;
        }
        Ok(())
    }
}

/// The bound index buffer as a draw reads it, and its index size in bits.
fn index_buffer(b: Bound, ty: vk::IndexType) -> (IndexBuffer, u32) {
    let (size, bytes) = match ty {
        vk::IndexType::UINT16 => (A4xxIndexSize::INDEX4_SIZE_16_BIT, 2),
        _ => (A4xxIndexSize::INDEX4_SIZE_32_BIT, 4),
    };
    let buffer = IndexBuffer {
        size,
        base: b.iova,
        // Indices past the buffer are not read (the draw's maximum).
        max: (b.size / bytes).min(u64::from(u32::MAX)) as u32,
    };
    (buffer, bytes as u32 * 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slot_mask_covers_exactly_the_pipelines_fetch_slots() {
        assert_eq!(first_slots(0), 0);
        assert_eq!(first_slots(1), 0b1);
        assert_eq!(first_slots(3), 0b111);
        assert_eq!(first_slots(31), u32::MAX >> 1);
        assert_eq!(first_slots(MAX_VERTEX_BUFFERS as u32), u32::MAX);
    }
}
