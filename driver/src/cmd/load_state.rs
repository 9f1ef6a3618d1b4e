//! CP_LOAD_STATE6 for the compute stage: state loaded into the SP's
//! caches (shader code, constants), from the packet itself or from memory
//! (adreno_pm4.xml's CP_LOAD_STATE6 payload).

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
        state_block: A6xxStateBlock::SB6_CS_SHADER,
        num_unit: units,
    };
    let lo = CpLoadState6Dw1 {
        ext_src_addr: address as u32,
    };
    let hi = CpLoadState6Dw2 {
        ext_src_addr_hi: (address >> 32) as u32,
    };
    Ok([
        pkt7(Opcode::CP_LOAD_STATE6_FRAG.0, (3 + inline) as u32),
        field(what, dw0.try_to_raw())?,
        field(what, lo.try_to_raw())?,
        field(what, hi.try_to_raw())?,
    ])
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
}
