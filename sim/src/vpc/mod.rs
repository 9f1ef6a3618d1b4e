//! The VPC: where the vertex shader's outputs go, and how the fragment
//! shader's varyings are interpolated from them.
//!
//! Each vertex's outputs are stored as STRIDE_IN_VPC dwords (VPC_VS_PACK),
//! the "VPC locations" the registers name:
//! - SP_VS_PRIMITIVE_CNTL.OUT outputs, output 2i in SP_VS_OUT[i]'s A half
//!   and 2i+1 in its B half: the first register and the components written
//!   (component c from register REGID + c to location OUTLOCn + c, OUTLOCn
//!   of SP_VS_VPC_DST[n / 4]);
//! - the position at VPC_VS_PACK.POSITIONLOC (four locations), the point
//!   size at PSIZELOC when PC_VS_OUT_CNTL.PSIZE says the shader writes it;
//! - clip and cull distances (VPC_VS_CLIP_CNTL): distance k at
//!   CLIP_DIST_03_LOC + k or CLIP_DIST_47_LOC + k - 4, the clip distances
//!   first and the cull distances after them (GRAS_VS_CL_CNTL's CLIP_MASK
//!   and CULL_MASK say which is which; Turnip and freedreno pack them so);
//! - the layer and viewport index at VPC_VS_LAYER_CNTL's LAYERLOC and
//!   VIEWLOC when GRAS_VS_LAYER_CNTL says they are written.
//!
//! The fragment shader reads the same locations (`bary.f`, `flat.b` and
//! `ldlv` name them). VPC_VAR[0..3].DISABLE marks the locations it does
//! not read, VPC_VARYING_INTERP[i].MODE gives each location's
//! interpolation (two bits per location, 16 per register: smooth, flat,
//! 0.0 or 1.0) and VPC_VARYING_PS_REPL[i].MODE what replaces it on points
//! (the point sprite's s, t or 1 - t). Turnip writes only the MODE
//! registers that cover enabled locations, so only those are read.

use parsnip_registers::enums::{A6xxVaryingInterpMode as Interp, A6xxVaryingPsReplMode as Repl};
use parsnip_registers::regs::{self, a6xx, a7xx};
use parsnip_registers::Chip;

use crate::draw_context::{DrawContext, DrawError};
use crate::report::Unit;

const U: Unit = Unit::Vpc;

/// VPC locations the fragment side addresses: VPC_VAR[0..3].DISABLE cover
/// 128.
pub(crate) const LOCATIONS: usize = 128;

/// One vertex shader output: its first register, components and location.
#[derive(Clone, Copy, Debug)]
struct Output {
    regid: u32,
    mask: u32,
    location: u32,
}

/// How a location reaches the fragment shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Interpolation {
    Smooth,
    Flat,
    Zero,
    One,
}

/// What replaces a location on points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PointCoord {
    None,
    S,
    T,
    OneMinusT,
}

/// The VPC state of a draw.
pub(crate) struct VaryingLayout {
    outputs: Vec<Output>,
    /// Dwords stored per vertex.
    pub stride: usize,
    pub position: usize,
    pub point_size: Option<usize>,
    pub layer: Option<usize>,
    pub viewport: Option<usize>,
    /// Where clip and cull distance k are, and which are clip distances
    /// and which cull distances.
    pub distance_locations: [usize; 8],
    pub clip_mask: u32,
    pub cull_mask: u32,
    /// Locations the fragment shader reads.
    pub enabled: [u32; 4],
    pub interpolation: [Interpolation; LOCATIONS],
    pub point_coord: [PointCoord; LOCATIONS],
    /// The location the primitive id goes to for the fragment shader.
    pub primitive_id: Option<usize>,
}

impl VaryingLayout {
    pub fn read(ctx: &DrawContext) -> Result<VaryingLayout, DrawError> {
        let so = regs::VpcSoDisable::from_raw(ctx.reg32::<regs::VpcSoDisable>(U)?);
        if !so.disable {
            return Err(DrawError::not_modelled(
                U,
                "transform feedback (VPC_SO_DISABLE clear)",
            ));
        }
        let pack = regs::VpcVsPack::from_raw(ctx.reg32::<regs::VpcVsPack>(U)?);
        if pack.extrapos != 0 {
            return Err(DrawError::not_modelled(
                U,
                "extra positions for multiview (VPC_VS_PACK.EXTRAPOS)",
            ));
        }
        let stride = pack.stride_in_vpc as usize;
        let check = |what: &str, loc: u32, n: u32| -> Result<usize, DrawError> {
            if loc + n > pack.stride_in_vpc {
                return Err(DrawError::bad_state(
                    U,
                    format!(
                        "{what} at location {loc} is past the {stride} locations of \
                         VPC_VS_PACK.STRIDE_IN_VPC"
                    ),
                ));
            }
            Ok(loc as usize)
        };
        let count = regs::SpVsPrimitiveCntl::from_raw(ctx.reg32::<regs::SpVsPrimitiveCntl>(U)?).out;
        let mut outputs = Vec::with_capacity(count as usize);
        for n in 0..count {
            let out = regs::SpVsOutReg::from_raw(ctx.reg32_at::<regs::SpVsOutReg>(U, n / 2)?);
            let dst = regs::SpVsVpcDstReg::from_raw(ctx.reg32_at::<regs::SpVsVpcDstReg>(U, n / 4)?);
            let (regid, mask) = if n % 2 == 0 {
                (out.a_regid, out.a_compmask)
            } else {
                (out.b_regid, out.b_compmask)
            };
            let location = [dst.outloc0, dst.outloc1, dst.outloc2, dst.outloc3][(n % 4) as usize];
            if mask != 0 {
                check(
                    &format!("vertex shader output {n}"),
                    location,
                    32 - mask.leading_zeros(),
                )?;
            }
            outputs.push(Output {
                regid,
                mask,
                location,
            });
        }
        let (out_psize, out_layer, out_view, out_clip) = match ctx.chip() {
            Chip::A6xx => {
                let o = a6xx::PcVsOutCntl::from_raw(ctx.reg32::<a6xx::PcVsOutCntl>(U)?);
                (o.psize, o.layer, o.view, o.clip_mask)
            }
            Chip::A7xx => {
                let o = a7xx::PcVsOutCntl::from_raw(ctx.reg32::<a7xx::PcVsOutCntl>(U)?);
                if o.shadingrate {
                    return Err(DrawError::not_modelled(
                        U,
                        "a per-primitive shading rate (PC_VS_OUT_CNTL.SHADINGRATE)",
                    ));
                }
                (o.psize, o.layer, o.view, o.clip_mask)
            }
        };
        let position = check("the position", pack.positionloc, 4)?;
        let point_size = if out_psize {
            Some(check("the point size", pack.psizeloc, 1)?)
        } else {
            None
        };
        let (layer, viewport) = if out_layer || out_view {
            let (layerloc, viewloc) = match ctx.chip() {
                Chip::A6xx => {
                    let l = a6xx::VpcVsLayerCntl::from_raw(ctx.reg32::<a6xx::VpcVsLayerCntl>(U)?);
                    (l.layerloc, l.viewloc)
                }
                Chip::A7xx => {
                    let l = a7xx::VpcVsLayerCntl::from_raw(ctx.reg32::<a7xx::VpcVsLayerCntl>(U)?);
                    (l.layerloc, l.viewloc)
                }
            };
            (
                if out_layer {
                    Some(check("the layer", layerloc, 1)?)
                } else {
                    None
                },
                if out_view {
                    Some(check("the viewport index", viewloc, 1)?)
                } else {
                    None
                },
            )
        } else {
            (None, None)
        };
        let cl = regs::GrasVsClCntl::from_raw(ctx.reg32::<regs::GrasVsClCntl>(Unit::Gras)?);
        let mut distance_locations = [0; 8];
        if out_clip != 0 || cl.clip_mask != 0 || cl.cull_mask != 0 {
            let clip = regs::VpcVsClipCntl::from_raw(ctx.reg32::<regs::VpcVsClipCntl>(U)?);
            if (cl.clip_mask | cl.cull_mask) & !clip.clip_mask != 0 {
                return Err(DrawError::bad_state(
                    U,
                    format!(
                        "GRAS_VS_CL_CNTL uses distances {:#x}, but VPC_VS_CLIP_CNTL.CLIP_MASK \
                         stores only {:#x}",
                        cl.clip_mask | cl.cull_mask,
                        clip.clip_mask
                    ),
                ));
            }
            for (k, slot) in distance_locations.iter_mut().enumerate() {
                if clip.clip_mask >> k & 1 == 0 {
                    continue;
                }
                let loc = if k < 4 {
                    clip.clip_dist_03_loc + k as u32
                } else {
                    clip.clip_dist_47_loc + k as u32 - 4
                };
                *slot = check(&format!("clip distance {k}"), loc, 1)?;
            }
        }
        let mut enabled = [0u32; 4];
        for (i, e) in enabled.iter_mut().enumerate() {
            *e =
                !regs::VpcVarDisable::from_raw(ctx.reg32_at::<regs::VpcVarDisable>(U, i as u32)?).0;
        }
        let mut interpolation = [Interpolation::Smooth; LOCATIONS];
        let mut point_coord = [PointCoord::None; LOCATIONS];
        for reg in 0..(LOCATIONS / 16) as u32 {
            let covers = (enabled[(reg / 2) as usize] >> ((reg % 2) * 16)) & 0xffff;
            if covers == 0 {
                continue;
            }
            let interp = ctx.reg32_at::<regs::VpcVaryingInterpMode>(U, reg)?;
            let repl = ctx.reg32_at::<regs::VpcVaryingPsReplMode>(U, reg)?;
            for l in 0..16 {
                let loc = (reg * 16 + l) as usize;
                interpolation[loc] = match Interp((interp >> (2 * l)) & 3) {
                    Interp::INTERP_SMOOTH => Interpolation::Smooth,
                    Interp::INTERP_FLAT => Interpolation::Flat,
                    Interp::INTERP_ZERO => Interpolation::Zero,
                    _ => Interpolation::One,
                };
                point_coord[loc] = match Repl((repl >> (2 * l)) & 3) {
                    Repl::PS_REPL_NONE => PointCoord::None,
                    Repl::PS_REPL_S => PointCoord::S,
                    Repl::PS_REPL_T => PointCoord::T,
                    _ => PointCoord::OneMinusT,
                };
            }
        }
        if point_coord.iter().any(|&p| p != PointCoord::None) {
            let invert =
                regs::VpcPointCoordInvert::from_raw(ctx.reg32::<regs::VpcPointCoordInvert>(U)?);
            if invert.invert {
                for p in point_coord.iter_mut() {
                    *p = match *p {
                        PointCoord::T => PointCoord::OneMinusT,
                        PointCoord::OneMinusT => PointCoord::T,
                        other => other,
                    };
                }
            }
        }
        let cntl = regs::VpcCntl0::from_raw(ctx.reg32::<regs::VpcCntl0>(U)?);
        let primid = regs::PcPsCntl::from_raw(ctx.reg32::<regs::PcPsCntl>(U)?);
        let primitive_id = if primid.primitiveiden {
            if cntl.primidloc as usize >= LOCATIONS {
                return Err(DrawError::bad_state(
                    U,
                    "PC_PS_CNTL.PRIMITIVEIDEN with VPC_CNTL_0.PRIMIDLOC unset",
                ));
            }
            Some(cntl.primidloc as usize)
        } else {
            None
        };
        Ok(VaryingLayout {
            outputs,
            stride,
            position,
            point_size,
            layer,
            viewport,
            distance_locations,
            clip_mask: cl.clip_mask,
            cull_mask: cl.cull_mask,
            enabled,
            interpolation,
            point_coord,
            primitive_id,
        })
    }

    /// Stores one vertex's outputs: `read(register)` is the value the
    /// vertex shader left in a register (`None` outside its footprint).
    pub fn store(
        &self,
        read: &dyn Fn(u32) -> Option<u32>,
        out: &mut [u32],
    ) -> Result<(), DrawError> {
        for o in &self.outputs {
            for c in 0..4 {
                if o.mask >> c & 1 == 0 {
                    continue;
                }
                let reg = o.regid + c;
                out[(o.location + c) as usize] = read(reg).ok_or_else(|| {
                    DrawError::bad_state(
                        U,
                        format!(
                            "SP_VS_OUT stores r{}.{} at location {}, outside the vertex \
                             shader's register footprint",
                            reg / 4,
                            ['x', 'y', 'z', 'w'][(reg % 4) as usize],
                            o.location + c
                        ),
                    )
                })?;
            }
        }
        Ok(())
    }
}
