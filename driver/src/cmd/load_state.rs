//! CP_LOAD_STATE6: state loaded into a shader stage's caches (shader code,
//! constants), from the packet itself or from memory (adreno_pm4.xml's
//! CP_LOAD_STATE6 payload). The geometry stages' loads are
//! CP_LOAD_STATE6_GEOM, the fragment and compute stages'
//! CP_LOAD_STATE6_FRAG, as Turnip picks the opcode by stage.

use parsnip_registers::enums::{A6xxStateBlock, A6xxStateSrc, A6xxStateType};
use parsnip_registers::packets::{CpLoadState6Dw0, CpLoadState6Dw1, CpLoadState6Dw2};
use parsnip_registers::pm4::{pkt7, Opcode};

use super::packets::{field, PacketSink};
use crate::error::VkResult;

/// Dwords of a CP_LOAD_STATE6 before its inline data.
pub const LOAD_STATE_DWORDS: usize = 4;

/// Where the loaded state comes from.
pub enum Source<'a> {
    /// Dwords in the packet.
    Direct(&'a [u32]),
    /// This many dwords in the packet, which the caller writes right
    /// after (built in place in the stream).
    Inline(usize),
    /// Memory at this address.
    Indirect(u64),
}

/// The stage a load is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadStage {
    Compute,
    Vertex,
    Fragment,
}

impl LoadStage {
    fn opcode_and_block(self) -> (Opcode, A6xxStateBlock) {
        match self {
            LoadStage::Compute => (Opcode::CP_LOAD_STATE6_FRAG, A6xxStateBlock::SB6_CS_SHADER),
            LoadStage::Vertex => (Opcode::CP_LOAD_STATE6_GEOM, A6xxStateBlock::SB6_VS_SHADER),
            LoadStage::Fragment => (Opcode::CP_LOAD_STATE6_FRAG, A6xxStateBlock::SB6_FS_SHADER),
        }
    }
}

/// Loads `units` units of `state_type` into the compute stage at
/// `dst_offset` (vec4s for constants, instructions for code).
pub fn load_cs_state(
    w: &mut impl PacketSink,
    state_type: A6xxStateType,
    dst_offset: u32,
    units: u32,
    source: Source<'_>,
) -> VkResult<()> {
    w.push_all(&load_cs_state_header(
        state_type, dst_offset, units, &source,
    )?);
    if let Source::Direct(data) = source {
        w.push_all(data);
    }
    Ok(())
}

/// The packet header and first three dwords of [`load_cs_state`], what
/// precedes the inline data (a dispatch builds them once per pipeline).
pub fn load_cs_state_header(
    state_type: A6xxStateType,
    dst_offset: u32,
    units: u32,
    source: &Source<'_>,
) -> VkResult<[u32; LOAD_STATE_DWORDS]> {
    load_state_header(LoadStage::Compute, state_type, dst_offset, units, source)
}

/// The packet header and first three dwords of a load into `stage`.
pub fn load_state_header(
    stage: LoadStage,
    state_type: A6xxStateType,
    dst_offset: u32,
    units: u32,
    source: &Source<'_>,
) -> VkResult<[u32; LOAD_STATE_DWORDS]> {
    let (opcode, state_block) = stage.opcode_and_block();
    let (state_src, address, inline) = match *source {
        Source::Direct(data) => (A6xxStateSrc::SS6_DIRECT, 0, data.len()),
        Source::Inline(n) => (A6xxStateSrc::SS6_DIRECT, 0, n),
        Source::Indirect(iova) => (A6xxStateSrc::SS6_INDIRECT, iova, 0),
    };
    let what = "CP_LOAD_STATE6";
    let dw0 = CpLoadState6Dw0 {
        dst_off: dst_offset,
        state_type,
        state_src,
        state_block,
        num_unit: units,
    };
    let lo = CpLoadState6Dw1 {
        ext_src_addr: address as u32,
    };
    let hi = CpLoadState6Dw2 {
        ext_src_addr_hi: (address >> 32) as u32,
    };
    Ok([
        pkt7(opcode.0, (3 + inline) as u32),
        field(what, dw0.try_to_raw())?,
        field(what, lo.try_to_raw())?,
        field(what, hi.try_to_raw())?,
    ])
}

/// Loads `image` (whole vec4s) as `stage`'s constants from c0.
pub fn load_stage_consts(w: &mut impl PacketSink, stage: LoadStage, image: &[u32]) -> VkResult<()> {
    load_stage_consts_header(w, stage, image.len())?;
    w.push_all(image);
    Ok(())
}

/// What precedes [`load_stage_consts`]'s image of `dwords` (whole
/// vec4s), for a caller that writes the image itself right after.
pub fn load_stage_consts_header(
    w: &mut impl PacketSink,
    stage: LoadStage,
    dwords: usize,
) -> VkResult<()> {
    w.push_all(&stage_consts_header(stage, dwords)?);
    Ok(())
}

/// The dwords [`load_stage_consts_header`] writes, for a caller that
/// keeps them.
pub fn stage_consts_header(stage: LoadStage, dwords: usize) -> VkResult<[u32; LOAD_STATE_DWORDS]> {
    let units = (dwords / 4) as u32;
    load_state_header(
        stage,
        A6xxStateType::ST6_CONSTANTS,
        0,
        units,
        &Source::Inline(dwords),
    )
}

/// Loads `dwords` as constants from vec4 `vec4_offset`, padded to whole
/// vec4s.
pub fn load_consts(w: &mut impl PacketSink, vec4_offset: u32, dwords: &[u32]) -> VkResult<()> {
    if dwords.is_empty() {
        return Ok(());
    }
    let units = dwords.len().div_ceil(4);
    load_cs_state(
        w,
        A6xxStateType::ST6_CONSTANTS,
        vec4_offset,
        units as u32,
        Source::Inline(units * 4),
    )?;
    w.push_all(dwords);
    for _ in dwords.len()..units * 4 {
        w.push(0);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::packets::PacketWriter;
    use parsnip_registers::Chip;

    #[test]
    fn constants_load_like_turnips_driver_params() {
        // a660 compute.log: CP_LOAD_STATE6_FRAG of 2 vec4s of constants at
        // c0: 7034000b 00b44000 00000000 00000000 then the 8 dwords.
        let mut w = PacketWriter::new(Chip::A6xx);
        load_consts(&mut w, 0, &[4, 1, 1, 0, 0, 0, 0, 0x40]).unwrap();
        assert_eq!(&w.dwords[..4], &[0x7034_000b, 0x00b4_4000, 0, 0]);
        assert_eq!(w.dwords[11], 0x40);
        // Partial vec4s are padded.
        let mut w = PacketWriter::new(Chip::A6xx);
        load_consts(&mut w, 3, &[1]).unwrap();
        assert_eq!(w.dwords.len(), 1 + 3 + 4);
    }

    #[test]
    fn vertex_constants_load_through_the_geometry_opcode() {
        let mut w = PacketWriter::new(Chip::A6xx);
        load_stage_consts(&mut w, LoadStage::Vertex, &[1, 2, 3, 4]).unwrap();
        // adreno_pm4.xml: CP_LOAD_STATE6_GEOM is opcode 0x32; dword 0 has
        // STATE_TYPE (bits 14-15, CONSTANTS 1), STATE_SRC (16-17, DIRECT
        // 0), STATE_BLOCK (18-21, SB6_VS_SHADER 8), NUM_UNIT (22-31).
        assert_eq!(w.dwords[0] >> 16 & 0x7f, 0x32);
        assert_eq!(w.dwords[1], 1 << 14 | 8 << 18 | 1 << 22);
        let mut w = PacketWriter::new(Chip::A7xx);
        load_stage_consts(&mut w, LoadStage::Fragment, &[0; 8]).unwrap();
        // CP_LOAD_STATE6_FRAG (0x34), SB6_FS_SHADER 12, two vec4s.
        assert_eq!(w.dwords[0] >> 16 & 0x7f, 0x34);
        assert_eq!(w.dwords[1], 1 << 14 | 12 << 18 | 2 << 22);
    }
}
