//! The state a command buffer may change between draws (Vulkan's dynamic
//! state, but for the viewport, scissor and vertex buffers, which
//! [`crate::graphics`] programs), in the groups the driver emits as
//! draw-state groups at draw time, as Turnip emits its dynamic state:
//!
//! - [`Rasterization`]: culling, winding, line width, depth bias
//!   (GRAS_SU_CNTL, GRAS_SU_POLY_OFFSET_*);
//! - [`DepthStencil`]: the depth, depth bounds and stencil tests
//!   (RB_DEPTH_CNTL, RB_Z_BOUNDS_*, RB_STENCIL_*);
//! - [`Primitive`]: primitive restart, the provoking vertex, rasterizer
//!   discard (PC_PRIMITIVE_CNTL_0, PC_RESTART_INDEX, PC_RASTER_CNTL);
//! - the blend constants (RB_BLEND_*_F32).
//!
//! A pipeline's static values for these are the same structures
//! ([`Pipeline::dynamic_state`]); no register here is written by
//! [`crate::graphics::program_pipeline_static`], so a group and the
//! pipeline's IB never fight over one.

use parsnip_registers::enums::{A5xxLineMode, A6xxDepthFormat, AdrenoCompareFunc, AdrenoStencilOp};
use parsnip_registers::regs::{self, a6xx, a7xx};
use parsnip_registers::Chip;

use crate::graphics::{Depth, Pipeline, StencilFace};
use crate::sink::PacketSink;

/// Culling, winding, line width and depth bias.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rasterization {
    pub cull_front: bool,
    pub cull_back: bool,
    pub front_cw: bool,
    pub line_width: f32,
    /// Slope factor, constant factor, clamp.
    pub depth_bias: Option<(f32, f32, f32)>,
    /// The depth buffer's format, which scales the constant bias.
    pub depth_format: A6xxDepthFormat,
}

/// The depth, depth bounds and stencil tests.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DepthStencil {
    pub depth: Option<Depth>,
    /// Front and back faces.
    pub stencil: Option<(StencilFace, StencilFace)>,
}

/// Primitive restart (its index), the provoking vertex, rasterizer
/// discard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Primitive {
    pub restart: Option<u32>,
    pub provoking_last: bool,
    pub discard: bool,
}

/// Every dynamic group's values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DynamicState {
    pub rasterization: Rasterization,
    pub depth_stencil: DepthStencil,
    pub primitive: Primitive,
    pub blend_constant: [f32; 4],
}

impl Pipeline {
    /// The pipeline's own values of the dynamic groups.
    pub fn dynamic_state(&self) -> DynamicState {
        DynamicState {
            rasterization: Rasterization {
                cull_front: self.cull_front,
                cull_back: self.cull_back,
                front_cw: self.front_cw,
                line_width: self.line_width,
                depth_bias: self.depth_bias,
                depth_format: self
                    .depth
                    .map_or(A6xxDepthFormat::DEPTH6_NONE, |d| d.format),
            },
            depth_stencil: DepthStencil {
                depth: self.depth,
                stencil: self.stencil,
            },
            primitive: Primitive {
                restart: self.restart,
                provoking_last: self.provoking_last,
                discard: self.discard,
            },
            blend_constant: self.blend_constant,
        }
    }
}

/// Every group of `d`.
pub fn program_dynamic<S: PacketSink>(s: &mut S, d: &DynamicState) -> Result<(), S::Error> {
    program_rasterization(s, &d.rasterization)?;
    program_depth_stencil(s, &d.depth_stencil)?;
    program_primitive(s, &d.primitive)?;
    program_blend_constants(s, d.blend_constant)
}

/// GRAS_SU_CNTL and the polygon offset (depth bias) registers.
pub fn program_rasterization<S: PacketSink>(s: &mut S, r: &Rasterization) -> Result<(), S::Error> {
    s.reg(&regs::GrasSuCntl {
        cull_front: r.cull_front,
        cull_back: r.cull_back,
        front_cw: r.front_cw,
        linehalfwidth: r.line_width / 2.0,
        poly_offset: r.depth_bias.is_some(),
        line_mode: A5xxLineMode::RECTANGULAR,
        ..Default::default()
    })?;
    if let Some((scale, offset, clamp)) = r.depth_bias {
        s.reg(&regs::GrasSuPolyOffsetScale(scale))?;
        s.reg(&regs::GrasSuPolyOffsetOffset(offset))?;
        s.reg(&regs::GrasSuPolyOffsetOffsetClamp(clamp))?;
        s.reg(&regs::GrasSuDepthBufferInfo {
            depth_format: r.depth_format,
            unk3: false,
        })?;
    }
    Ok(())
}

/// A face that never passes and keeps what is stored (stencil off).
const NO_STENCIL: StencilFace = (
    AdrenoCompareFunc::FUNC_NEVER,
    AdrenoStencilOp::STENCIL_KEEP,
    AdrenoStencilOp::STENCIL_KEEP,
    AdrenoStencilOp::STENCIL_KEEP,
    0,
    0,
    0,
);

/// Depth and stencil testing (RB_DEPTH_CNTL, RB_Z_BOUNDS, RB_STENCIL_*).
/// The stencil lives in the depth buffer (D24S8: RB_STENCIL_INFO has no
/// separate stencil).
pub fn program_depth_stencil<S: PacketSink>(s: &mut S, t: &DepthStencil) -> Result<(), S::Error> {
    let chip = s.chip();
    let d = t.depth;
    s.reg(&regs::RbDepthCntl {
        z_test_enable: d.is_some_and(|d| d.test),
        z_write_enable: d.is_some_and(|d| d.write),
        zfunc: d.map_or(AdrenoCompareFunc::FUNC_NEVER, |d| d.func),
        z_clamp_enable: d.is_some_and(|d| d.clamp.is_some()),
        z_read_enable: d.is_some(),
        z_bounds_enable: d.is_some_and(|d| d.bounds.is_some()),
    })?;
    if let Some(d) = d {
        if let Some((lo, hi)) = d.bounds {
            s.reg(&regs::RbZBoundsMin(lo))?;
            s.reg(&regs::RbZBoundsMax(hi))?;
        }
        if let Some((lo, hi)) = d.clamp {
            s.reg(&regs::RbZClampMin(lo))?;
            s.reg(&regs::RbZClampMax(hi))?;
        }
    }
    // The rasteriser's copy of the enable (what LRZ consults).
    s.reg(&regs::GrasSuStencilCntl {
        stencil_enable: t.stencil.is_some(),
    })?;
    let (front, back) = t.stencil.unwrap_or((NO_STENCIL, NO_STENCIL));
    s.reg(&regs::RbStencilControl {
        stencil_enable: t.stencil.is_some(),
        stencil_enable_bf: t.stencil.is_some(),
        stencil_read: t.stencil.is_some(),
        func: front.0,
        fail: front.1,
        zpass: front.2,
        zfail: front.3,
        func_bf: back.0,
        fail_bf: back.1,
        zpass_bf: back.2,
        zfail_bf: back.3,
    })?;
    s.reg(&regs::RbStencilref {
        r#ref: front.4 & 0xff,
        bfref: back.4 & 0xff,
    })?;
    s.reg(&regs::RbStencilmask {
        mask: front.5 & 0xff,
        bfmask: back.5 & 0xff,
    })?;
    s.reg(&regs::RbStencilwrmask {
        wrmask: front.6 & 0xff,
        bfwrmask: back.6 & 0xff,
    })?;
    match chip {
        Chip::A6xx => s.reg(&a6xx::RbStencilInfo::default())?,
        Chip::A7xx => s.reg(&a7xx::RbStencilInfo::default())?,
    };
    Ok(())
}

/// Primitive restart, the provoking vertex and rasterizer discard. The
/// discard bit is in PC_RASTER_CNTL on both generations; a6xx also takes
/// it in VPC_UNKNOWN_9107 and a7xx in PC_RASTER_CNTL_V2 (where Turnip's
/// tu6_emit_rast writes it).
pub fn program_primitive<S: PacketSink>(s: &mut S, p: &Primitive) -> Result<(), S::Error> {
    s.reg(&regs::PcPrimitiveCntl0 {
        primitive_restart: p.restart.is_some(),
        provoking_vtx_last: p.provoking_last,
        ..Default::default()
    })?;
    if let Some(r) = p.restart {
        s.reg(&regs::PcRestartIndex(r))?;
    }
    s.reg(&regs::PcRasterCntl {
        discard: p.discard,
        ..Default::default()
    })?;
    match s.chip() {
        Chip::A6xx => s.reg(&regs::VpcUnknown9107 {
            raster_discard: p.discard,
            ..Default::default()
        })?,
        Chip::A7xx => s.reg(&regs::PcRasterCntlV2 {
            discard: p.discard,
            ..Default::default()
        })?,
    };
    Ok(())
}

/// RB_BLEND_{RED,GREEN,BLUE,ALPHA}_F32.
pub fn program_blend_constants<S: PacketSink>(s: &mut S, c: [f32; 4]) -> Result<(), S::Error> {
    let [r, g, b, a] = c;
    s.reg(&regs::RbBlendRedF32(r))?;
    s.reg(&regs::RbBlendGreenF32(g))?;
    s.reg(&regs::RbBlendBlueF32(b))?;
    s.reg(&regs::RbBlendAlphaF32(a))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graphics::{program_pipeline, program_pipeline_static, Target};
    use crate::{regid, StateWriter};
    use parsnip_registers::enums::A6xxFormat;

    #[test]
    fn the_static_state_leaves_every_dynamic_register_to_the_groups() {
        let target = Target::new(A6xxFormat::FMT6_8_8_8_8_UNORM, regid(0, 0));
        let mut p = Pipeline::new(0x1000, Some(0x2000), Some(target));
        p.depth_bias = Some((1.0, 2.0, 0.0));
        p.restart = Some(u32::MAX);
        for chip in [Chip::A6xx, Chip::A7xx] {
            let mut w = StateWriter::new(chip);
            program_dynamic(&mut w, &p.dynamic_state()).unwrap();
            let dynamic: Vec<u32> = w.register_writes().iter().map(|w| w.0).collect();
            let mut w = StateWriter::new(chip);
            program_pipeline_static(&mut w, &p).unwrap();
            let fixed = w.register_writes();
            assert!(
                !fixed.iter().any(|(o, _)| dynamic.contains(o)),
                "{chip}: the pipeline writes a dynamic register"
            );
            // Together they are the whole pipeline.
            let mut w = StateWriter::new(chip);
            program_pipeline(&mut w, &p).unwrap();
            assert_eq!(w.register_writes().len(), fixed.len() + dynamic.len());
        }
    }

    #[test]
    fn stencil_faces_and_discard_land_in_their_fields() {
        let face = |f, r| {
            (
                f,
                AdrenoStencilOp::STENCIL_ZERO,
                AdrenoStencilOp::STENCIL_REPLACE,
                AdrenoStencilOp::STENCIL_INVERT,
                r,
                0xf0,
                0x0f,
            )
        };
        let t = DepthStencil {
            depth: None,
            stencil: Some((
                face(AdrenoCompareFunc::FUNC_EQUAL, 7),
                face(AdrenoCompareFunc::FUNC_LESS, 0x1ff),
            )),
        };
        let mut w = StateWriter::new(Chip::A6xx);
        program_depth_stencil(&mut w, &t).unwrap();
        program_primitive(
            &mut w,
            &Primitive {
                restart: None,
                provoking_last: false,
                discard: true,
            },
        )
        .unwrap();
        let writes = w.register_writes();
        // a6xx.xml: RB_STENCILREF (0x8887) REF bits 0-7, BFREF 8-15: the
        // reference is taken modulo 256 as Vulkan's 8-bit stencil does.
        assert!(writes.contains(&(0x8887, 7 | 0xff << 8)), "{writes:x?}");
        // RB_STENCIL_CONTROL (0x8880): enables bits 0-2, FUNC 8-10 (EQUAL
        // 2), FAIL 11-13 (ZERO 1), ZPASS 14-16 (REPLACE 2), ZFAIL 17-19
        // (INVERT 5), FUNC_BF 20-22 (LESS 1), and the same ops again.
        let ops = 1 << 11 | 2 << 14 | 5 << 17;
        assert!(writes.contains(&(0x8880, 7 | 2 << 8 | ops | 1 << 20 | ops << 12)));
        // PC_RASTER_CNTL (0x9980) DISCARD bit 2; VPC_UNKNOWN_9107 bit 0.
        assert!(writes.contains(&(0x9980, 4)));
        assert!(writes.contains(&(0x9107, 1)));
    }
}
