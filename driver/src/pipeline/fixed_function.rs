//! A graphics pipeline's fixed-function state, from Vulkan's terms to the
//! hardware's: input assembly, rasterisation, depth/stencil and colour
//! blending, written into the shared state description
//! (`parsnip_hw_state::graphics::Pipeline`) that programs the GPU.
//!
//! The enums' values are the hardware's (adreno_common.xml, adreno_pm4.xml,
//! a6xx.xml); the mapping is by meaning, never by number, since the orders
//! differ (blend factors leave gaps, logic ops are the ROP3 truth tables).
//! What the hardware cannot do, or that is not built yet, is refused with
//! a message.

use ash::vk;
use parsnip_hw_state::graphics::{Pipeline, StencilFace};
use parsnip_registers::enums::{
    A3xxRbBlendOpcode, A3xxRopCode, A6xxPolygonMode, AdrenoCompareFunc, AdrenoRbBlendFactor,
    AdrenoStencilOp, PcDiPrimtype,
};

use crate::error::VkResult;

fn refuse<T>(what: &str) -> VkResult<T> {
    // Reached from pipeline creation and from the vkCmdSet* of dynamic
    // state, so no command is named.
    eprintln!("parsnip: graphics state: {what} is not supported");
    Err(vk::Result::ERROR_UNKNOWN)
}

/// The primitive type a draw of `topology` gives the PC.
pub fn primitive(topology: vk::PrimitiveTopology) -> VkResult<PcDiPrimtype> {
    use vk::PrimitiveTopology as T;
    use PcDiPrimtype as P;
    Ok(match topology {
        T::POINT_LIST => P::DI_PT_POINTLIST,
        T::LINE_LIST => P::DI_PT_LINELIST,
        T::LINE_STRIP => P::DI_PT_LINESTRIP,
        T::TRIANGLE_LIST => P::DI_PT_TRILIST,
        T::TRIANGLE_STRIP => P::DI_PT_TRISTRIP,
        T::TRIANGLE_FAN => P::DI_PT_TRIFAN,
        T::LINE_LIST_WITH_ADJACENCY => P::DI_PT_LINE_ADJ,
        T::LINE_STRIP_WITH_ADJACENCY => P::DI_PT_LINESTRIP_ADJ,
        T::TRIANGLE_LIST_WITH_ADJACENCY => P::DI_PT_TRI_ADJ,
        T::TRIANGLE_STRIP_WITH_ADJACENCY => P::DI_PT_TRISTRIP_ADJ,
        _ => return refuse(&format!("topology {topology:?}")),
    })
}

pub fn compare_func(op: vk::CompareOp) -> VkResult<AdrenoCompareFunc> {
    use vk::CompareOp as C;
    use AdrenoCompareFunc as F;
    Ok(match op {
        C::NEVER => F::FUNC_NEVER,
        C::LESS => F::FUNC_LESS,
        C::EQUAL => F::FUNC_EQUAL,
        C::LESS_OR_EQUAL => F::FUNC_LEQUAL,
        C::GREATER => F::FUNC_GREATER,
        C::NOT_EQUAL => F::FUNC_NOTEQUAL,
        C::GREATER_OR_EQUAL => F::FUNC_GEQUAL,
        C::ALWAYS => F::FUNC_ALWAYS,
        _ => return refuse(&format!("compare op {op:?}")),
    })
}

pub fn stencil_op(op: vk::StencilOp) -> VkResult<AdrenoStencilOp> {
    use vk::StencilOp as O;
    use AdrenoStencilOp as S;
    Ok(match op {
        O::KEEP => S::STENCIL_KEEP,
        O::ZERO => S::STENCIL_ZERO,
        O::REPLACE => S::STENCIL_REPLACE,
        O::INCREMENT_AND_CLAMP => S::STENCIL_INCR_CLAMP,
        O::DECREMENT_AND_CLAMP => S::STENCIL_DECR_CLAMP,
        O::INVERT => S::STENCIL_INVERT,
        O::INCREMENT_AND_WRAP => S::STENCIL_INCR_WRAP,
        O::DECREMENT_AND_WRAP => S::STENCIL_DECR_WRAP,
        _ => return refuse(&format!("stencil op {op:?}")),
    })
}

pub fn blend_factor(f: vk::BlendFactor) -> VkResult<AdrenoRbBlendFactor> {
    use vk::BlendFactor as V;
    use AdrenoRbBlendFactor as H;
    Ok(match f {
        V::ZERO => H::FACTOR_ZERO,
        V::ONE => H::FACTOR_ONE,
        V::SRC_COLOR => H::FACTOR_SRC_COLOR,
        V::ONE_MINUS_SRC_COLOR => H::FACTOR_ONE_MINUS_SRC_COLOR,
        V::DST_COLOR => H::FACTOR_DST_COLOR,
        V::ONE_MINUS_DST_COLOR => H::FACTOR_ONE_MINUS_DST_COLOR,
        V::SRC_ALPHA => H::FACTOR_SRC_ALPHA,
        V::ONE_MINUS_SRC_ALPHA => H::FACTOR_ONE_MINUS_SRC_ALPHA,
        V::DST_ALPHA => H::FACTOR_DST_ALPHA,
        V::ONE_MINUS_DST_ALPHA => H::FACTOR_ONE_MINUS_DST_ALPHA,
        V::CONSTANT_COLOR => H::FACTOR_CONSTANT_COLOR,
        V::ONE_MINUS_CONSTANT_COLOR => H::FACTOR_ONE_MINUS_CONSTANT_COLOR,
        V::CONSTANT_ALPHA => H::FACTOR_CONSTANT_ALPHA,
        V::ONE_MINUS_CONSTANT_ALPHA => H::FACTOR_ONE_MINUS_CONSTANT_ALPHA,
        V::SRC_ALPHA_SATURATE => H::FACTOR_SRC_ALPHA_SATURATE,
        V::SRC1_COLOR => H::FACTOR_SRC1_COLOR,
        V::ONE_MINUS_SRC1_COLOR => H::FACTOR_ONE_MINUS_SRC1_COLOR,
        V::SRC1_ALPHA => H::FACTOR_SRC1_ALPHA,
        V::ONE_MINUS_SRC1_ALPHA => H::FACTOR_ONE_MINUS_SRC1_ALPHA,
        _ => return refuse(&format!("blend factor {f:?}")),
    })
}

/// The RB's blend opcodes name the operands as the result: `src - dst` is
/// BLEND_SRC_MINUS_DST.
pub fn blend_op(op: vk::BlendOp) -> VkResult<A3xxRbBlendOpcode> {
    use vk::BlendOp as O;
    use A3xxRbBlendOpcode as B;
    Ok(match op {
        O::ADD => B::BLEND_DST_PLUS_SRC,
        O::SUBTRACT => B::BLEND_SRC_MINUS_DST,
        O::REVERSE_SUBTRACT => B::BLEND_DST_MINUS_SRC,
        O::MIN => B::BLEND_MIN_DST_SRC,
        O::MAX => B::BLEND_MAX_DST_SRC,
        _ => return refuse(&format!("blend op {op:?}")),
    })
}

/// Vulkan's logic ops by the hardware's ROP code for the same function of
/// source s and destination d.
pub fn logic_op(op: vk::LogicOp) -> VkResult<A3xxRopCode> {
    use vk::LogicOp as L;
    use A3xxRopCode as R;
    Ok(match op {
        L::CLEAR => R::ROP_CLEAR,
        L::AND => R::ROP_AND,
        L::AND_REVERSE => R::ROP_AND_REVERSE,
        L::COPY => R::ROP_COPY,
        L::AND_INVERTED => R::ROP_AND_INVERTED,
        L::NO_OP => R::ROP_NOOP,
        L::XOR => R::ROP_XOR,
        L::OR => R::ROP_OR,
        L::NOR => R::ROP_NOR,
        L::EQUIVALENT => R::ROP_EQUIV,
        L::INVERT => R::ROP_INVERT,
        L::OR_REVERSE => R::ROP_OR_REVERSE,
        L::COPY_INVERTED => R::ROP_COPY_INVERTED,
        L::OR_INVERTED => R::ROP_OR_INVERTED,
        L::NAND => R::ROP_NAND,
        L::SET => R::ROP_SET,
        _ => return refuse(&format!("logic op {op:?}")),
    })
}

/// Input assembly: the primitive type draws use, and primitive restart
/// (its index is the all-ones value of the index type, set at draw time).
pub fn input_assembly(
    p: &mut Pipeline,
    info: &vk::PipelineInputAssemblyStateCreateInfo<'_>,
) -> VkResult<PcDiPrimtype> {
    let primitive = primitive(info.topology)?;
    p.restart = (info.primitive_restart_enable == vk::TRUE).then_some(u32::MAX);
    Ok(primitive)
}

/// Rasterisation: culling, winding, polygon mode, line width, depth bias,
/// rasterizer discard.
/// Depth clamp (to the viewport's depth range, which is dynamic state) is
/// not built yet.
pub fn rasterization(
    p: &mut Pipeline,
    info: &vk::PipelineRasterizationStateCreateInfo<'_>,
) -> VkResult<()> {
    p.discard = info.rasterizer_discard_enable == vk::TRUE;
    p.cull_front = info.cull_mode.contains(vk::CullModeFlags::FRONT);
    p.cull_back = info.cull_mode.contains(vk::CullModeFlags::BACK);
    p.front_cw = info.front_face == vk::FrontFace::CLOCKWISE;
    p.polygon_mode = match info.polygon_mode {
        vk::PolygonMode::FILL => A6xxPolygonMode::POLYMODE6_TRIANGLES,
        vk::PolygonMode::LINE => A6xxPolygonMode::POLYMODE6_LINES,
        vk::PolygonMode::POINT => A6xxPolygonMode::POLYMODE6_POINTS,
        m => return refuse(&format!("polygon mode {m:?}")),
    };
    p.line_width = info.line_width;
    p.depth_bias = (info.depth_bias_enable == vk::TRUE).then_some((
        info.depth_bias_slope_factor,
        info.depth_bias_constant_factor,
        info.depth_bias_clamp,
    ));
    if info.depth_clamp_enable == vk::TRUE {
        return refuse("depth clamp");
    }
    Ok(())
}

/// One face's stencil state as the RB takes it.
fn stencil_face(s: &vk::StencilOpState) -> VkResult<StencilFace> {
    Ok((
        compare_func(s.compare_op)?,
        stencil_op(s.fail_op)?,
        stencil_op(s.pass_op)?,
        stencil_op(s.depth_fail_op)?,
        s.reference,
        s.compare_mask,
        s.write_mask,
    ))
}

/// Depth and stencil testing, on the depth attachment `p.depth` describes
/// (set from the render pass before this).
pub fn depth_stencil(
    p: &mut Pipeline,
    info: &vk::PipelineDepthStencilStateCreateInfo<'_>,
) -> VkResult<()> {
    if let Some(d) = p.depth.as_mut() {
        d.test = info.depth_test_enable == vk::TRUE;
        d.write = info.depth_write_enable == vk::TRUE && d.test;
        d.func = compare_func(info.depth_compare_op)?;
        d.bounds = (info.depth_bounds_test_enable == vk::TRUE)
            .then_some((info.min_depth_bounds, info.max_depth_bounds));
    }
    p.stencil = if info.stencil_test_enable == vk::TRUE {
        Some((stencil_face(&info.front)?, stencil_face(&info.back)?))
    } else {
        None
    };
    Ok(())
}

/// Colour blending of each target of `p` (one attachment state per target,
/// in order), the logic op and the blend constants.
pub fn color_blend(
    p: &mut Pipeline,
    logic_op_enable: bool,
    op: vk::LogicOp,
    attachments: &[vk::PipelineColorBlendAttachmentState],
    constants: [f32; 4],
) -> VkResult<()> {
    if attachments.len() != p.targets.len() {
        return refuse("a blend state count other than the subpass's colour attachments");
    }
    let rop = if logic_op_enable {
        Some(logic_op(op)?)
    } else {
        None
    };
    for (t, a) in p.targets.iter_mut().zip(attachments) {
        t.write_mask = a.color_write_mask.as_raw() & 0xf;
        t.rop = rop;
        t.blend = if a.blend_enable == vk::TRUE && rop.is_none() {
            Some([
                (
                    blend_op(a.color_blend_op)?,
                    blend_factor(a.src_color_blend_factor)?,
                    blend_factor(a.dst_color_blend_factor)?,
                ),
                (
                    blend_op(a.alpha_blend_op)?,
                    blend_factor(a.src_alpha_blend_factor)?,
                    blend_factor(a.dst_alpha_blend_factor)?,
                ),
            ])
        } else {
            None
        };
    }
    p.blend_constant = constants;
    Ok(())
}

/// A viewport as the hardware's description holds it: x, y, width,
/// height, min depth, max depth.
pub fn viewport(v: &vk::Viewport) -> [f32; 6] {
    [v.x, v.y, v.width, v.height, v.min_depth, v.max_depth]
}

/// A scissor as x, y, width, height; what lies left of or above the
/// framebuffer is cut off (negative offsets are invalid in Vulkan, and
/// would only cover pixels that do not exist).
pub fn scissor(s: &vk::Rect2D) -> [u32; 4] {
    let cut = |o: i32, len: u32| {
        let start = o.max(0);
        let end = (i64::from(o) + i64::from(len)).clamp(0, i64::from(u32::MAX)) as u32;
        (start as u32, end.saturating_sub(start as u32))
    };
    let (x, w) = cut(s.offset.x, s.extent.width);
    let (y, h) = cut(s.offset.y, s.extent.height);
    [x, y, w, h]
}

#[cfg(test)]
mod tests {
    use super::*;
    use parsnip_hw_state::graphics::{Depth, Target};
    use parsnip_hw_state::regid;
    use parsnip_registers::enums::{A6xxDepthFormat, A6xxFormat};

    fn pipeline() -> Pipeline {
        let target = Target::new(A6xxFormat::FMT6_8_8_8_8_UNORM, regid(0, 0));
        let mut p = Pipeline::new(0x1000, Some(0x2000), Some(target));
        p.depth = Some(Depth {
            format: A6xxDepthFormat::DEPTH6_16,
            test: false,
            write: false,
            func: AdrenoCompareFunc::FUNC_NEVER,
            bounds: None,
            clamp: None,
        });
        p
    }

    #[test]
    fn enums_map_by_meaning_to_the_hardwares_values() {
        // adreno_pm4.xml: TRILIST 4, TRIFAN 5, TRISTRIP 6, POINTLIST 9.
        let prim = |t| primitive(t).unwrap().0;
        assert_eq!(prim(vk::PrimitiveTopology::TRIANGLE_LIST), 4);
        assert_eq!(prim(vk::PrimitiveTopology::TRIANGLE_FAN), 5);
        assert_eq!(prim(vk::PrimitiveTopology::TRIANGLE_STRIP), 6);
        assert_eq!(prim(vk::PrimitiveTopology::POINT_LIST), 9);
        assert!(primitive(vk::PrimitiveTopology::PATCH_LIST).is_err());
        // adreno_common.xml: the compare functions and stencil ops follow
        // Vulkan's order.
        assert_eq!(compare_func(vk::CompareOp::GREATER_OR_EQUAL).unwrap().0, 6);
        assert_eq!(stencil_op(vk::StencilOp::DECREMENT_AND_WRAP).unwrap().0, 7);
        // Blend factors: SRC_ALPHA is 6 (Vulkan 6), DST_COLOR 8 (Vulkan 4),
        // SRC_ALPHA_SATURATE 16 (Vulkan 14), SRC1_COLOR 20 (Vulkan 15).
        assert_eq!(blend_factor(vk::BlendFactor::SRC_ALPHA).unwrap().0, 6);
        assert_eq!(blend_factor(vk::BlendFactor::DST_COLOR).unwrap().0, 8);
        assert_eq!(
            blend_factor(vk::BlendFactor::SRC_ALPHA_SATURATE).unwrap().0,
            16
        );
        assert_eq!(blend_factor(vk::BlendFactor::SRC1_COLOR).unwrap().0, 20);
        // Subtract is src - dst (a3xx: BLEND_SRC_MINUS_DST = 1).
        assert_eq!(blend_op(vk::BlendOp::SUBTRACT).unwrap().0, 1);
        assert_eq!(blend_op(vk::BlendOp::REVERSE_SUBTRACT).unwrap().0, 2);
        // A ROP code is a truth table: its bit 2s + d is the result for
        // source s and destination d. COPY is 12 (0b1100), AND 8, XOR 6,
        // COPY_INVERTED 3, AND_REVERSE (s & !d) 4, AND_INVERTED (!s & d)
        // 2, NOOP (d) 10.
        let rop = |l| logic_op(l).unwrap().0;
        assert_eq!(rop(vk::LogicOp::COPY), 12);
        assert_eq!(rop(vk::LogicOp::AND), 8);
        assert_eq!(rop(vk::LogicOp::XOR), 6);
        assert_eq!(rop(vk::LogicOp::COPY_INVERTED), 3);
        assert_eq!(rop(vk::LogicOp::AND_REVERSE), 4);
        assert_eq!(rop(vk::LogicOp::AND_INVERTED), 2);
        assert_eq!(rop(vk::LogicOp::NO_OP), 10);
    }

    #[test]
    fn rasterisation_sets_culling_winding_and_bias() {
        let mut p = pipeline();
        let info = vk::PipelineRasterizationStateCreateInfo::default()
            .cull_mode(vk::CullModeFlags::BACK)
            .front_face(vk::FrontFace::CLOCKWISE)
            .polygon_mode(vk::PolygonMode::LINE)
            .line_width(2.0)
            .depth_bias_enable(true)
            .depth_bias_constant_factor(4.0)
            .depth_bias_slope_factor(0.5)
            .depth_bias_clamp(0.25)
            .depth_clamp_enable(false);
        rasterization(&mut p, &info).unwrap();
        assert!(p.cull_back && !p.cull_front && p.front_cw);
        assert_eq!(p.polygon_mode, A6xxPolygonMode::POLYMODE6_LINES);
        assert_eq!(p.line_width, 2.0);
        assert_eq!(p.depth_bias, Some((0.5, 4.0, 0.25)));
        let clamp = info.depth_clamp_enable(true);
        assert!(
            rasterization(&mut p, &clamp).is_err(),
            "depth clamp is refused"
        );
        let discard = info.rasterizer_discard_enable(true);
        rasterization(&mut p, &discard).unwrap();
        assert!(p.discard);
    }

    #[test]
    fn depth_writes_need_the_test_and_stencil_faces_keep_their_order() {
        let mut p = pipeline();
        let front = vk::StencilOpState {
            fail_op: vk::StencilOp::ZERO,
            pass_op: vk::StencilOp::REPLACE,
            depth_fail_op: vk::StencilOp::INVERT,
            compare_op: vk::CompareOp::EQUAL,
            compare_mask: 0xf0,
            write_mask: 0x0f,
            reference: 7,
        };
        let info = vk::PipelineDepthStencilStateCreateInfo::default()
            .depth_test_enable(false)
            .depth_write_enable(true)
            .depth_compare_op(vk::CompareOp::LESS)
            .stencil_test_enable(true)
            .front(front)
            .back(vk::StencilOpState::default());
        depth_stencil(&mut p, &info).unwrap();
        let d = p.depth.unwrap();
        // Vulkan: writes happen only when the test is enabled.
        assert!(!d.test && !d.write);
        assert_eq!(d.func, AdrenoCompareFunc::FUNC_LESS);
        let (f, b) = p.stencil.unwrap();
        assert_eq!(
            f,
            (
                AdrenoCompareFunc::FUNC_EQUAL,
                AdrenoStencilOp::STENCIL_ZERO,
                AdrenoStencilOp::STENCIL_REPLACE,
                AdrenoStencilOp::STENCIL_INVERT,
                7,
                0xf0,
                0x0f
            )
        );
        assert_eq!(b.0, AdrenoCompareFunc::FUNC_NEVER);
    }

    #[test]
    fn blending_is_per_target_and_a_logic_op_replaces_it() {
        let mut p = pipeline();
        let a = vk::PipelineColorBlendAttachmentState {
            blend_enable: vk::TRUE,
            src_color_blend_factor: vk::BlendFactor::SRC_ALPHA,
            dst_color_blend_factor: vk::BlendFactor::ONE_MINUS_SRC_ALPHA,
            color_blend_op: vk::BlendOp::ADD,
            src_alpha_blend_factor: vk::BlendFactor::ONE,
            dst_alpha_blend_factor: vk::BlendFactor::ZERO,
            alpha_blend_op: vk::BlendOp::MAX,
            color_write_mask: vk::ColorComponentFlags::R | vk::ColorComponentFlags::A,
        };
        color_blend(&mut p, false, vk::LogicOp::COPY, &[a], [0.5; 4]).unwrap();
        let t = p.targets[0];
        assert_eq!(t.write_mask, 0b1001);
        assert_eq!(
            t.blend,
            Some([
                (
                    A3xxRbBlendOpcode::BLEND_DST_PLUS_SRC,
                    AdrenoRbBlendFactor::FACTOR_SRC_ALPHA,
                    AdrenoRbBlendFactor::FACTOR_ONE_MINUS_SRC_ALPHA
                ),
                (
                    A3xxRbBlendOpcode::BLEND_MAX_DST_SRC,
                    AdrenoRbBlendFactor::FACTOR_ONE,
                    AdrenoRbBlendFactor::FACTOR_ZERO
                ),
            ])
        );
        assert_eq!(p.blend_constant, [0.5; 4]);
        color_blend(&mut p, true, vk::LogicOp::XOR, &[a], [0.0; 4]).unwrap();
        assert_eq!(p.targets[0].rop, Some(A3xxRopCode::ROP_XOR));
        assert!(p.targets[0].blend.is_none());
        assert!(color_blend(&mut p, false, vk::LogicOp::COPY, &[a, a], [0.0; 4]).is_err());
    }

    #[test]
    fn viewports_keep_their_order_and_scissors_are_cut_at_the_origin() {
        let v = vk::Viewport {
            x: 8.0,
            y: 4.0,
            width: 32.0,
            height: 16.0,
            min_depth: 0.25,
            max_depth: 0.75,
        };
        assert_eq!(viewport(&v), [8.0, 4.0, 32.0, 16.0, 0.25, 0.75]);
        let rect = |x, y, width, height| vk::Rect2D {
            offset: vk::Offset2D { x, y },
            extent: vk::Extent2D { width, height },
        };
        assert_eq!(scissor(&rect(2, 3, 10, 5)), [2, 3, 10, 5]);
        // From x = -4, 10 wide: pixels 0 to 5.
        assert_eq!(scissor(&rect(-4, 0, 10, 5)), [0, 0, 6, 5]);
        assert_eq!(scissor(&rect(-20, 0, 10, 5)), [0, 0, 0, 5]);
    }
}
