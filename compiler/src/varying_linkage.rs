//! Linking a vertex shader to a fragment shader: which VPC location each vertex shader
//! output is stored at, as data the driver turns into SP_VS_OUT, SP_VS_VPC_DST,
//! VPC_VS_PACK, VPC_VS_CLIP_CNTL, VPC_VAR, VPC_VARYING_INTERP and VPC_CNTL_0.
//!
//! The fragment shader's code names the VPC locations it reads (`bary.f`/`ldlv`'s inloc),
//! so the fragment shader decides the layout of the varyings and the vertex shader's
//! outputs are sent where it reads them; outputs it does not read are dropped. The
//! position, then the point size, then the clip and cull distances follow the varyings,
//! packed after the last location the fragment shader reads, as Turnip lays them out
//! (`reference/turnip/a660/points_sysmem.log`: varyings at 0..3, POSITIONLOC 4,
//! PSIZELOC 8, STRIDE_IN_VPC 9).

use crate::error::{CompileError, Result};
use crate::stage_info::{FragmentInfo, Interpolation, RegId, VaryingSlot, VertexInfo};

/// One SP_VS_OUT entry: components `mask` of the output from `reg` (component `c` from
/// `reg.offset(c)`) stored at VPC locations `location + c`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LinkedOutput {
    pub slot: VaryingSlot,
    pub reg: RegId,
    pub mask: u8,
    pub location: u32,
}

/// The VPC layout of a vertex and fragment shader pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VaryingLinkage {
    /// SP_VS_OUT / SP_VS_VPC_DST, in order (SP_VS_PRIMITIVE_CNTL.OUT is their number).
    pub outputs: Vec<LinkedOutput>,
    /// VPC_VS_PACK.STRIDE_IN_VPC and PC_VS_OUT_CNTL.STRIDE_IN_VPC: locations per vertex.
    pub stride: u32,
    /// VPC_VS_PACK.POSITIONLOC.
    pub position_location: u32,
    /// VPC_VS_PACK.PSIZELOC, when the vertex shader writes gl_PointSize.
    pub point_size_location: Option<u32>,
    /// VPC_VS_CLIP_CNTL.CLIP_DIST_03_LOC and CLIP_DIST_47_LOC.
    pub clip_cull_locations: [Option<u32>; 2],
    /// VPC_CNTL_0.NUMNONPOSVAR: locations the fragment shader reads.
    pub varying_locations: u32,
    /// VPC_VAR[i].DISABLE is the complement: bit `l % 32` of word `l / 32` for each location
    /// the fragment shader reads.
    pub enabled: [u32; 4],
    /// The locations the VPC passes flat (VPC_VARYING_INTERP mode 1), same layout.
    pub flat: [u32; 4],
}

impl VaryingLinkage {
    pub fn is_flat(&self, location: u32) -> bool {
        location < 128 && self.flat[location as usize / 32] >> (location % 32) & 1 != 0
    }

    pub fn is_enabled(&self, location: u32) -> bool {
        location < 128 && self.enabled[location as usize / 32] >> (location % 32) & 1 != 0
    }
}

fn set_bit(words: &mut [u32; 4], location: u32) -> Result<()> {
    if location >= 128 {
        return Err(CompileError::new(format!(
            "varying location {location} is beyond the 128 the VPC has"
        )));
    }
    words[location as usize / 32] |= 1 << (location % 32);
    Ok(())
}

/// Matches `fs`'s inputs with `vs`'s outputs by location and component.
pub fn link(vs: &VertexInfo, fs: &FragmentInfo) -> Result<VaryingLinkage> {
    let mut outputs = Vec::new();
    let mut enabled = [0u32; 4];
    let mut flat = [0u32; 4];
    for input in &fs.inputs {
        let out = vs
            .output(VaryingSlot::Location(input.location))
            .ok_or_else(|| {
                CompileError::new(format!(
                    "the fragment shader reads location {} which the vertex shader does not write",
                    input.location
                ))
            })?;
        let wanted = ((1u32 << input.components) - 1) << input.component;
        if u32::from(out.mask) & wanted != wanted {
            return Err(CompileError::new(format!(
                "the fragment shader reads components {:#x} of location {}; the vertex \
                 shader writes {:#x}",
                wanted, input.location, out.mask
            )));
        }
        outputs.push(LinkedOutput {
            slot: out.slot,
            reg: out.reg.offset(input.component),
            mask: ((1u32 << input.components) - 1) as u8,
            location: input.inloc,
        });
        for c in 0..u32::from(input.components) {
            set_bit(&mut enabled, input.inloc + c)?;
            if input.interpolation == Interpolation::Flat {
                set_bit(&mut flat, input.inloc + c)?;
            }
        }
    }
    let varying_locations = fs.inloc_end();
    let mut next = varying_locations;
    // The position is always stored: the rasterizer needs it even when the fragment
    // shader reads nothing.
    let position_location = next;
    outputs.push(LinkedOutput {
        slot: VaryingSlot::Position,
        reg: vs.position_reg.unwrap_or(RegId::UNUSED),
        mask: 0xf,
        location: position_location,
    });
    next += 4;
    let point_size_location = vs.point_size_reg.map(|reg| {
        outputs.push(LinkedOutput {
            slot: VaryingSlot::PointSize,
            reg,
            mask: 1,
            location: next,
        });
        next += 1;
        next - 1
    });
    let mut clip_cull_locations = [None; 2];
    for (k, loc) in clip_cull_locations.iter_mut().enumerate() {
        if let Some(out) = vs.output(VaryingSlot::ClipCullDistance(k as u8)) {
            outputs.push(LinkedOutput {
                slot: out.slot,
                reg: out.reg,
                mask: out.mask,
                location: next,
            });
            *loc = Some(next);
            next += 4;
        }
    }
    if next > 128 {
        return Err(CompileError::new(format!(
            "the varyings need {next} VPC locations; there are 128"
        )));
    }
    Ok(VaryingLinkage {
        outputs,
        stride: next,
        position_location,
        point_size_location,
        clip_cull_locations,
        varying_locations,
        enabled,
        flat,
    })
}
