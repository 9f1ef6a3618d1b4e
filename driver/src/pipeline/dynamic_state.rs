//! The state Vulkan lets a command buffer set between draws (the
//! `VkDynamicState`s of Vulkan 1.0, `VK_EXT_extended_dynamic_state` and
//! `_2` that Parsnip builds), kept in Vulkan's terms with the hardware's
//! enums, so that each `vkCmdSet*` replaces exactly its part: a pipeline
//! holds its own values and which states it leaves dynamic; a command
//! buffer holds the current values, takes the pipeline's static ones when
//! it is bound, and lowers them to the hardware's groups
//! (`parsnip_hw_state::dynamic`) at the next draw.
//!
//! The viewport and scissor are kept by the command buffer's graphics
//! state as before (`cmd/draw.rs`); the vertex strides are here.

use ash::vk;
use parsnip_hw_state::dynamic::{DepthStencil, DynamicState, Primitive, Rasterization};
use parsnip_hw_state::graphics::{Depth, StencilFace};
use parsnip_registers::enums::{A6xxDepthFormat, AdrenoCompareFunc, AdrenoStencilOp, PcDiPrimtype};

use super::fixed_function::{compare_func, primitive, stencil_op};
use crate::cmd::draw::MAX_VERTEX_BUFFERS;
use crate::error::VkResult;

/// One dynamic state's bit in a [`DynamicMask`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Dyn {
    LineWidth,
    DepthBias,
    BlendConstants,
    DepthBounds,
    StencilCompareMask,
    StencilWriteMask,
    StencilReference,
    CullMode,
    FrontFace,
    PrimitiveTopology,
    VertexInputBindingStride,
    DepthTestEnable,
    DepthWriteEnable,
    DepthCompareOp,
    DepthBoundsTestEnable,
    StencilTestEnable,
    StencilOp,
    RasterizerDiscardEnable,
    DepthBiasEnable,
    PrimitiveRestartEnable,
}

/// Which states a pipeline leaves to the command buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DynamicMask(u32);

impl DynamicMask {
    pub fn has(self, d: Dyn) -> bool {
        self.0 & (1 << d as u32) != 0
    }

    fn add(&mut self, d: Dyn) {
        self.0 |= 1 << d as u32;
    }

    /// The mask of a pipeline's dynamic states; the viewport and scissor
    /// (with or without count) are the caller's, and what is not built is
    /// refused with its name.
    pub fn from_states(states: &[vk::DynamicState]) -> Result<DynamicMask, vk::DynamicState> {
        use vk::DynamicState as S;
        let mut m = DynamicMask::default();
        for &s in states {
            let d = match s {
                S::VIEWPORT | S::SCISSOR | S::VIEWPORT_WITH_COUNT | S::SCISSOR_WITH_COUNT => {
                    continue
                }
                S::LINE_WIDTH => Dyn::LineWidth,
                S::DEPTH_BIAS => Dyn::DepthBias,
                S::BLEND_CONSTANTS => Dyn::BlendConstants,
                S::DEPTH_BOUNDS => Dyn::DepthBounds,
                S::STENCIL_COMPARE_MASK => Dyn::StencilCompareMask,
                S::STENCIL_WRITE_MASK => Dyn::StencilWriteMask,
                S::STENCIL_REFERENCE => Dyn::StencilReference,
                S::CULL_MODE => Dyn::CullMode,
                S::FRONT_FACE => Dyn::FrontFace,
                S::PRIMITIVE_TOPOLOGY => Dyn::PrimitiveTopology,
                S::VERTEX_INPUT_BINDING_STRIDE => Dyn::VertexInputBindingStride,
                S::DEPTH_TEST_ENABLE => Dyn::DepthTestEnable,
                S::DEPTH_WRITE_ENABLE => Dyn::DepthWriteEnable,
                S::DEPTH_COMPARE_OP => Dyn::DepthCompareOp,
                S::DEPTH_BOUNDS_TEST_ENABLE => Dyn::DepthBoundsTestEnable,
                S::STENCIL_TEST_ENABLE => Dyn::StencilTestEnable,
                S::STENCIL_OP => Dyn::StencilOp,
                S::RASTERIZER_DISCARD_ENABLE => Dyn::RasterizerDiscardEnable,
                S::DEPTH_BIAS_ENABLE => Dyn::DepthBiasEnable,
                S::PRIMITIVE_RESTART_ENABLE => Dyn::PrimitiveRestartEnable,
                other => return Err(other),
            };
            m.add(d);
        }
        Ok(m)
    }
}

/// One face's stencil test: compare op, fail, pass, depth-fail ops, and
/// the three values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StencilState {
    pub compare: AdrenoCompareFunc,
    pub fail: AdrenoStencilOp,
    pub pass: AdrenoStencilOp,
    pub depth_fail: AdrenoStencilOp,
    pub compare_mask: u32,
    pub write_mask: u32,
    pub reference: u32,
}

impl Default for StencilState {
    fn default() -> Self {
        StencilState {
            compare: AdrenoCompareFunc::FUNC_NEVER,
            fail: AdrenoStencilOp::STENCIL_KEEP,
            pass: AdrenoStencilOp::STENCIL_KEEP,
            depth_fail: AdrenoStencilOp::STENCIL_KEEP,
            compare_mask: 0,
            write_mask: 0,
            reference: 0,
        }
    }
}

/// Every dynamic state's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DynamicValues {
    pub line_width: f32,
    /// Constant factor, clamp, slope factor (vkCmdSetDepthBias's order).
    pub depth_bias: [f32; 3],
    pub depth_bias_enable: bool,
    pub blend_constants: [f32; 4],
    pub depth_bounds: (f32, f32),
    pub depth_bounds_test_enable: bool,
    /// Front, back.
    pub stencil: [StencilState; 2],
    pub stencil_test_enable: bool,
    pub cull_front: bool,
    pub cull_back: bool,
    pub front_cw: bool,
    pub topology: PcDiPrimtype,
    pub depth_test_enable: bool,
    pub depth_write_enable: bool,
    pub depth_compare: AdrenoCompareFunc,
    pub rasterizer_discard: bool,
    pub primitive_restart: bool,
    /// Each vertex binding's stride.
    pub strides: [u32; MAX_VERTEX_BUFFERS],
}

impl Default for DynamicValues {
    fn default() -> Self {
        DynamicValues {
            line_width: 1.0,
            depth_bias: [0.0; 3],
            depth_bias_enable: false,
            blend_constants: [0.0; 4],
            depth_bounds: (0.0, 1.0),
            depth_bounds_test_enable: false,
            stencil: [StencilState::default(); 2],
            stencil_test_enable: false,
            cull_front: false,
            cull_back: false,
            front_cw: false,
            topology: PcDiPrimtype::DI_PT_TRILIST,
            depth_test_enable: false,
            depth_write_enable: false,
            depth_compare: AdrenoCompareFunc::FUNC_NEVER,
            rasterizer_discard: false,
            primitive_restart: false,
            strides: [0; MAX_VERTEX_BUFFERS],
        }
    }
}

/// What of the pipeline the lowering needs besides the values: its depth
/// attachment and the state no command sets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FixedParts {
    pub depth_format: Option<A6xxDepthFormat>,
    /// The depth attachment has a stencil aspect.
    pub has_stencil: bool,
    pub provoking_last: bool,
    pub depth_clamp: Option<(f32, f32)>,
}

impl DynamicValues {
    /// Takes `pipeline`'s value of every state it does not leave dynamic
    /// (Vulkan: binding a pipeline sets its static state, and leaves the
    /// dynamic state as the command buffer set it).
    pub fn take_static(&mut self, pipeline: &DynamicValues, dynamic: DynamicMask) {
        let keep = |d| dynamic.has(d);
        let p = pipeline;
        if !keep(Dyn::LineWidth) {
            self.line_width = p.line_width;
        }
        if !keep(Dyn::DepthBias) {
            self.depth_bias = p.depth_bias;
        }
        if !keep(Dyn::DepthBiasEnable) {
            self.depth_bias_enable = p.depth_bias_enable;
        }
        if !keep(Dyn::BlendConstants) {
            self.blend_constants = p.blend_constants;
        }
        if !keep(Dyn::DepthBounds) {
            self.depth_bounds = p.depth_bounds;
        }
        if !keep(Dyn::DepthBoundsTestEnable) {
            self.depth_bounds_test_enable = p.depth_bounds_test_enable;
        }
        for (s, ps) in self.stencil.iter_mut().zip(&p.stencil) {
            if !keep(Dyn::StencilCompareMask) {
                s.compare_mask = ps.compare_mask;
            }
            if !keep(Dyn::StencilWriteMask) {
                s.write_mask = ps.write_mask;
            }
            if !keep(Dyn::StencilReference) {
                s.reference = ps.reference;
            }
            if !keep(Dyn::StencilOp) {
                s.compare = ps.compare;
                s.fail = ps.fail;
                s.pass = ps.pass;
                s.depth_fail = ps.depth_fail;
            }
        }
        if !keep(Dyn::StencilTestEnable) {
            self.stencil_test_enable = p.stencil_test_enable;
        }
        if !keep(Dyn::CullMode) {
            self.cull_front = p.cull_front;
            self.cull_back = p.cull_back;
        }
        if !keep(Dyn::FrontFace) {
            self.front_cw = p.front_cw;
        }
        if !keep(Dyn::PrimitiveTopology) {
            self.topology = p.topology;
        }
        if !keep(Dyn::VertexInputBindingStride) {
            self.strides = p.strides;
        }
        if !keep(Dyn::DepthTestEnable) {
            self.depth_test_enable = p.depth_test_enable;
        }
        if !keep(Dyn::DepthWriteEnable) {
            self.depth_write_enable = p.depth_write_enable;
        }
        if !keep(Dyn::DepthCompareOp) {
            self.depth_compare = p.depth_compare;
        }
        if !keep(Dyn::RasterizerDiscardEnable) {
            self.rasterizer_discard = p.rasterizer_discard;
        }
        if !keep(Dyn::PrimitiveRestartEnable) {
            self.primitive_restart = p.primitive_restart;
        }
    }

    /// The hardware's groups for these values, drawing with `fixed`'s
    /// attachment and `index_bits` indices (primitive restart is at the
    /// all-ones index of the draw's index type, as Vulkan defines it;
    /// 32 for non-indexed draws, which never restart).
    pub fn lower(&self, fixed: &FixedParts, index_bits: u32) -> DynamicState {
        let depth = fixed.depth_format.map(|format| Depth {
            format,
            test: self.depth_test_enable,
            // Vulkan: depth writes happen only when the test is enabled.
            write: self.depth_write_enable && self.depth_test_enable,
            func: self.depth_compare,
            bounds: self.depth_bounds_test_enable.then_some(self.depth_bounds),
            clamp: fixed.depth_clamp,
        });
        let face = |s: &StencilState| -> StencilFace {
            (
                s.compare,
                s.fail,
                s.pass,
                s.depth_fail,
                s.reference,
                s.compare_mask,
                s.write_mask,
            )
        };
        let stencil = (self.stencil_test_enable && fixed.has_stencil)
            .then(|| (face(&self.stencil[0]), face(&self.stencil[1])));
        let [constant, clamp, slope] = self.depth_bias;
        DynamicState {
            rasterization: Rasterization {
                cull_front: self.cull_front,
                cull_back: self.cull_back,
                front_cw: self.front_cw,
                line_width: self.line_width,
                depth_bias: self.depth_bias_enable.then_some((slope, constant, clamp)),
                depth_format: fixed.depth_format.unwrap_or(A6xxDepthFormat::DEPTH6_NONE),
            },
            depth_stencil: DepthStencil { depth, stencil },
            primitive: Primitive {
                restart: self.primitive_restart.then_some(match index_bits {
                    8 => 0xff,
                    16 => 0xffff,
                    _ => u32::MAX,
                }),
                provoking_last: fixed.provoking_last,
                discard: self.rasterizer_discard,
            },
            blend_constant: self.blend_constants,
        }
    }
}

/// A pipeline's own values, from its create info: `strides` are its
/// vertex bindings' (by binding number).
pub fn pipeline_values(
    input_assembly: &vk::PipelineInputAssemblyStateCreateInfo<'_>,
    rasterization: &vk::PipelineRasterizationStateCreateInfo<'_>,
    depth_stencil: Option<&vk::PipelineDepthStencilStateCreateInfo<'_>>,
    blend_constants: [f32; 4],
    strides: &[(u32, u32)],
) -> VkResult<DynamicValues> {
    let mut v = DynamicValues {
        line_width: rasterization.line_width,
        depth_bias: [
            rasterization.depth_bias_constant_factor,
            rasterization.depth_bias_clamp,
            rasterization.depth_bias_slope_factor,
        ],
        depth_bias_enable: rasterization.depth_bias_enable == vk::TRUE,
        blend_constants,
        cull_front: rasterization.cull_mode.contains(vk::CullModeFlags::FRONT),
        cull_back: rasterization.cull_mode.contains(vk::CullModeFlags::BACK),
        front_cw: rasterization.front_face == vk::FrontFace::CLOCKWISE,
        topology: primitive(input_assembly.topology)?,
        rasterizer_discard: rasterization.rasterizer_discard_enable == vk::TRUE,
        primitive_restart: input_assembly.primitive_restart_enable == vk::TRUE,
        ..Default::default()
    };
    for &(binding, stride) in strides {
        if let Some(s) = v.strides.get_mut(binding as usize) {
            *s = stride;
        }
    }
    if let Some(ds) = depth_stencil {
        v.depth_test_enable = ds.depth_test_enable == vk::TRUE;
        v.depth_write_enable = ds.depth_write_enable == vk::TRUE;
        v.depth_compare = compare_func(ds.depth_compare_op)?;
        v.depth_bounds = (ds.min_depth_bounds, ds.max_depth_bounds);
        v.depth_bounds_test_enable = ds.depth_bounds_test_enable == vk::TRUE;
        v.stencil_test_enable = ds.stencil_test_enable == vk::TRUE;
        v.stencil = [stencil_state(&ds.front)?, stencil_state(&ds.back)?];
    }
    Ok(v)
}

/// One face of a create info's (or vkCmdSetStencilOp's) stencil state.
pub fn stencil_state(s: &vk::StencilOpState) -> VkResult<StencilState> {
    Ok(StencilState {
        compare: compare_func(s.compare_op)?,
        fail: stencil_op(s.fail_op)?,
        pass: stencil_op(s.pass_op)?,
        depth_fail: stencil_op(s.depth_fail_op)?,
        compare_mask: s.compare_mask,
        write_mask: s.write_mask,
        reference: s.reference,
    })
}

/// The stencil faces `faces` names (front, back), for the `vkCmdSetStencil*`
/// commands.
pub fn faces(faces: vk::StencilFaceFlags) -> [bool; 2] {
    [
        faces.contains(vk::StencilFaceFlags::FRONT),
        faces.contains(vk::StencilFaceFlags::BACK),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binding_takes_the_static_state_and_keeps_the_dynamic() {
        let mask = DynamicMask::from_states(&[
            vk::DynamicState::STENCIL_REFERENCE,
            vk::DynamicState::CULL_MODE,
            vk::DynamicState::VIEWPORT,
        ])
        .unwrap();
        let mut pipeline = DynamicValues::default();
        pipeline.stencil[0].reference = 3;
        pipeline.stencil[0].write_mask = 0xff;
        pipeline.cull_back = true;
        pipeline.front_cw = true;
        let mut cmd = DynamicValues::default();
        cmd.stencil[0].reference = 9;
        cmd.take_static(&pipeline, mask);
        assert_eq!(cmd.stencil[0].reference, 9, "dynamic: kept");
        assert_eq!(cmd.stencil[0].write_mask, 0xff, "static: the pipeline's");
        assert!(!cmd.cull_back && cmd.front_cw);
        assert_eq!(
            DynamicMask::from_states(&[vk::DynamicState::LOGIC_OP_EXT]),
            Err(vk::DynamicState::LOGIC_OP_EXT)
        );
    }

    #[test]
    fn lowering_follows_the_attachment_and_the_index_type() {
        let mut v = DynamicValues {
            depth_test_enable: false,
            depth_write_enable: true,
            stencil_test_enable: true,
            primitive_restart: true,
            depth_bias_enable: true,
            depth_bias: [4.0, 0.5, 2.0],
            ..Default::default()
        };
        let d24s8 = FixedParts {
            depth_format: Some(A6xxDepthFormat::DEPTH6_24_8),
            has_stencil: true,
            provoking_last: false,
            depth_clamp: None,
        };
        let hw = v.lower(&d24s8, 16);
        let depth = hw.depth_stencil.depth.unwrap();
        assert!(!depth.write, "no depth writes without the test");
        assert!(hw.depth_stencil.stencil.is_some());
        assert_eq!(hw.primitive.restart, Some(0xffff));
        // GRAS_SU_POLY_OFFSET: scale (slope), offset (constant), clamp.
        assert_eq!(hw.rasterization.depth_bias, Some((2.0, 4.0, 0.5)));
        let d16 = FixedParts {
            depth_format: Some(A6xxDepthFormat::DEPTH6_16),
            has_stencil: false,
            ..d24s8
        };
        assert!(v.lower(&d16, 32).depth_stencil.stencil.is_none());
        v.primitive_restart = false;
        assert_eq!(v.lower(&d16, 8).primitive.restart, None);
    }
}
