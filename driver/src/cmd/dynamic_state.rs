//! A command buffer's dynamic state: the `vkCmdSet*` commands of Vulkan
//! 1.0, `VK_EXT_extended_dynamic_state` and `_2` (but the viewport and
//! scissor, `draw.rs`'s), and their emission at draw time.
//!
//! The current values ([`DynamicValues`]) take a pipeline's static ones
//! when it is bound and each command's when it runs; a draw lowers them
//! to the hardware's groups (`parsnip_hw_state::dynamic`) and, for each
//! group that differs from what the stream last set, writes its
//! registers into the command buffer's upload memory and points a
//! draw-state group at them (CP_SET_DRAW_STATE), as Turnip emits its
//! dynamic state: the pipeline's own IB writes none of these registers,
//! so the two never disagree, and a pass replayed per bin replays the
//! group settings with its draws.

use ash::vk;
use parsnip_hw_state::dynamic::{
    program_blend_constants, program_depth_stencil, program_primitive, program_rasterization,
    DynamicState,
};
use parsnip_hw_state::StateWriter;
use parsnip_registers::RegisterError;

use super::buffer::Recording;
use super::draw_state::{set_group, StateGroup, StateIb, SET_GROUP_DWORDS};
use super::packets::register_error;
use crate::error::VkResult;
use crate::pipeline::dynamic_state::{faces, stencil_state, DynamicValues, StencilState};
use crate::pipeline::fixed_function::{compare_func, primitive};
use crate::pipeline::graphics::GraphicsPipeline;

/// IB alignment in upload memory (an IB address is dword aligned; a
/// cache line keeps groups apart).
const GROUP_ALIGN: u64 = 64;

/// The dynamic state of a command buffer.
#[derive(Default)]
pub struct DynamicRecording {
    pub values: DynamicValues,
    /// The values changed since the last draw lowered them.
    dirty: bool,
    /// What the stream's groups were last set to, and for which index
    /// size; `None` where nothing is known (a new command buffer, after a
    /// secondary).
    emitted: Option<(DynamicState, u32)>,
}

impl DynamicRecording {
    /// Whether a draw with `index_bits`-bit indices must lower and emit
    /// the values: they changed, or the stream's are unknown or for another
    /// index size.
    #[inline]
    pub fn needs_emit(&self, index_bits: u32) -> bool {
        self.dirty || self.emitted.is_none_or(|(_, bits)| bits != index_bits)
    }

    /// A pipeline is bound: its static state replaces the current one.
    pub fn bind(&mut self, pipeline: &GraphicsPipeline) {
        self.values.take_static(&pipeline.values, pipeline.dynamic);
        self.dirty = true;
    }

    /// Nothing the stream set is known any more.
    pub fn invalidate(&mut self) {
        self.emitted = None;
        self.dirty = true;
    }
}

impl Recording {
    /// Changes the current values with `f`.
    fn set_dynamic(&mut self, f: impl FnOnce(&mut DynamicValues)) -> VkResult<()> {
        let d = &mut self.graphics.dynamic;
        f(&mut d.values);
        d.dirty = true;
        Ok(())
    }

    pub fn set_line_width(&mut self, width: f32) -> VkResult<()> {
        self.set_dynamic(|v| v.line_width = width)
    }

    pub fn set_depth_bias(&mut self, constant: f32, clamp: f32, slope: f32) -> VkResult<()> {
        self.set_dynamic(|v| v.depth_bias = [constant, clamp, slope])
    }

    pub fn set_blend_constants(&mut self, constants: [f32; 4]) -> VkResult<()> {
        self.set_dynamic(|v| v.blend_constants = constants)
    }

    pub fn set_depth_bounds(&mut self, min: f32, max: f32) -> VkResult<()> {
        self.set_dynamic(|v| v.depth_bounds = (min, max))
    }

    /// Changes the stencil state of the faces `which` names with `f`.
    fn set_stencil(
        &mut self,
        which: vk::StencilFaceFlags,
        f: impl Fn(&mut StencilState),
    ) -> VkResult<()> {
        self.set_dynamic(|v| {
            for (s, on) in v.stencil.iter_mut().zip(faces(which)) {
                if on {
                    f(s);
                }
            }
        })
    }

    pub fn set_stencil_compare_mask(
        &mut self,
        which: vk::StencilFaceFlags,
        mask: u32,
    ) -> VkResult<()> {
        self.set_stencil(which, |s| s.compare_mask = mask)
    }

    pub fn set_stencil_write_mask(
        &mut self,
        which: vk::StencilFaceFlags,
        mask: u32,
    ) -> VkResult<()> {
        self.set_stencil(which, |s| s.write_mask = mask)
    }

    pub fn set_stencil_reference(
        &mut self,
        which: vk::StencilFaceFlags,
        reference: u32,
    ) -> VkResult<()> {
        self.set_stencil(which, |s| s.reference = reference)
    }

    pub fn set_cull_mode(&mut self, mode: vk::CullModeFlags) -> VkResult<()> {
        self.set_dynamic(|v| {
            v.cull_front = mode.contains(vk::CullModeFlags::FRONT);
            v.cull_back = mode.contains(vk::CullModeFlags::BACK);
        })
    }

    pub fn set_front_face(&mut self, face: vk::FrontFace) -> VkResult<()> {
        self.set_dynamic(|v| v.front_cw = face == vk::FrontFace::CLOCKWISE)
    }

    pub fn set_primitive_topology(&mut self, topology: vk::PrimitiveTopology) -> VkResult<()> {
        let p = primitive(topology)?;
        self.set_dynamic(|v| v.topology = p)
    }

    pub fn set_depth_test_enable(&mut self, on: bool) -> VkResult<()> {
        self.set_dynamic(|v| v.depth_test_enable = on)
    }

    pub fn set_depth_write_enable(&mut self, on: bool) -> VkResult<()> {
        self.set_dynamic(|v| v.depth_write_enable = on)
    }

    pub fn set_depth_compare_op(&mut self, op: vk::CompareOp) -> VkResult<()> {
        let f = compare_func(op)?;
        self.set_dynamic(|v| v.depth_compare = f)
    }

    pub fn set_depth_bounds_test_enable(&mut self, on: bool) -> VkResult<()> {
        self.set_dynamic(|v| v.depth_bounds_test_enable = on)
    }

    pub fn set_stencil_test_enable(&mut self, on: bool) -> VkResult<()> {
        self.set_dynamic(|v| v.stencil_test_enable = on)
    }

    /// `vkCmdSetStencilOp`: the ops and compare op of `which` faces.
    pub fn set_stencil_op(
        &mut self,
        which: vk::StencilFaceFlags,
        ops: vk::StencilOpState,
    ) -> VkResult<()> {
        let new = stencil_state(&ops)?;
        self.set_stencil(which, |s| {
            s.compare = new.compare;
            s.fail = new.fail;
            s.pass = new.pass;
            s.depth_fail = new.depth_fail;
        })
    }

    pub fn set_rasterizer_discard_enable(&mut self, on: bool) -> VkResult<()> {
        self.set_dynamic(|v| v.rasterizer_discard = on)
    }

    pub fn set_depth_bias_enable(&mut self, on: bool) -> VkResult<()> {
        self.set_dynamic(|v| v.depth_bias_enable = on)
    }

    pub fn set_primitive_restart_enable(&mut self, on: bool) -> VkResult<()> {
        self.set_dynamic(|v| v.primitive_restart = on)
    }

    /// Before a draw of `pipeline` with `index_bits`-bit indices (32 for
    /// draws without): sets each dynamic group that changed.
    pub(super) fn emit_dynamic(
        &mut self,
        pipeline: &GraphicsPipeline,
        index_bits: u32,
    ) -> VkResult<()> {
        let d = &self.graphics.dynamic;
        if !d.needs_emit(index_bits) {
            return Ok(());
        }
        let new = d.values.lower(&pipeline.fixed, index_bits);
        let old = d.emitted.map(|(s, _)| s);
        let changed = |same: fn(&DynamicState, &DynamicState) -> bool| {
            old.as_ref().is_none_or(|o| !same(o, &new))
        };
        if changed(|a, b| a.rasterization == b.rasterization) {
            self.emit_group(StateGroup::DynamicRasterization, |w| {
                program_rasterization(w, &new.rasterization)
            })?;
        }
        if changed(|a, b| a.depth_stencil == b.depth_stencil) {
            self.emit_group(StateGroup::DynamicDepthStencil, |w| {
                program_depth_stencil(w, &new.depth_stencil)
            })?;
        }
        if changed(|a, b| a.primitive == b.primitive) {
            self.emit_group(StateGroup::DynamicPrimitive, |w| {
                program_primitive(w, &new.primitive)
            })?;
        }
        if changed(|a, b| a.blend_constant == b.blend_constant) {
            self.emit_group(StateGroup::DynamicBlendConstants, |w| {
                program_blend_constants(w, new.blend_constant)
            })?;
        }
        let d = &mut self.graphics.dynamic;
        d.emitted = Some((new, index_bits));
        d.dirty = false;
        Ok(())
    }

    /// Writes a group's registers into upload memory and points `group`
    /// at them.
    fn emit_group(
        &mut self,
        group: StateGroup,
        write: impl FnOnce(&mut StateWriter) -> Result<(), RegisterError>,
    ) -> VkResult<()> {
        let mut w = StateWriter::new(self.device.gpu.chip());
        write(&mut w).map_err(register_error)?;
        let iova = self.upload.upload(&w.dwords, GROUP_ALIGN)?;
        let ib = StateIb {
            iova,
            dwords: w.dwords.len() as u32,
        };
        self.cs
            .emit(SET_GROUP_DWORDS, |r| set_group(r, group, ib, false))
    }
}
