//! Render-mode markers and draw packets (adreno_pm4.xml: CP_SET_MARKER,
//! CP_DRAW_INDX_OFFSET, CP_DRAW_INDIRECT, CP_DRAW_INDX_INDIRECT,
//! CP_DRAW_INDIRECT_MULTI, CP_SET_VISIBILITY_OVERRIDE).
//!
//! Every draw packet says whether the draw obeys the binning pass's
//! visibility stream (VIS_CULL): a render pass's draws do, so that a bin
//! skips the draws that cover none of its pixels, as Turnip's streams
//! draw with USE_VISIBILITY in every mode. Where no binning pass ran (a
//! sysmem pass, a GMEM pass without binning) CP_SET_VISIBILITY_OVERRIDE
//! makes those draws ignore the stream; a bin rendered against a stream
//! clears it.

use parsnip_registers::enums::{
    A4xxIndexSize, A6xxDrawIndirectOpcode, A6xxMarker, PcDiPrimtype, PcDiSrcSel, PcDiVisCullMode,
    SetMarkerMode,
};
use parsnip_registers::packets;
use parsnip_registers::pm4::Opcode;
use parsnip_registers::regs;
use parsnip_registers::Chip;

use crate::sink::{lo_hi, PacketSink};

/// CP_SET_MARKER to render mode `mode` (its layout differs per chip).
pub fn set_marker<S: PacketSink>(s: &mut S, mode: A6xxMarker) -> Result<(), S::Error> {
    marker(s, mode, false)
}

/// CP_SET_MARKER to a render mode of a GMEM pass (a bin's rendering or
/// resolve), with USES_GMEM as Turnip's `*_gmem` streams set it
/// (RM6_BIN_RENDER_START | USES_GMEM, RM6_BIN_RESOLVE | USES_GMEM).
pub fn gmem_marker<S: PacketSink>(s: &mut S, mode: A6xxMarker) -> Result<(), S::Error> {
    marker(s, mode, true)
}

fn marker<S: PacketSink>(s: &mut S, mode: A6xxMarker, uses_gmem: bool) -> Result<(), S::Error> {
    let dw = match s.chip() {
        Chip::A6xx => S::field(
            packets::a6xx::CpSetMarkerDw0 {
                marker_mode: SetMarkerMode::SET_RENDER_MODE,
                mode,
                uses_gmem,
                ..Default::default()
            }
            .try_to_raw(),
        )?,
        Chip::A7xx => S::field(
            packets::a7xx::CpSetMarkerDw0 {
                marker_mode: SetMarkerMode::SET_RENDER_MODE,
                mode,
                uses_gmem,
                ..Default::default()
            }
            .try_to_raw(),
        )?,
    };
    s.packet(Opcode::CP_SET_MARKER, &[dw]);
    Ok(())
}

/// CP_SET_MARKER to sysmem (direct) rendering, as Turnip's `*_sysmem`
/// streams start a render pass.
pub fn sysmem_marker<S: PacketSink>(s: &mut S) -> Result<(), S::Error> {
    set_marker(s, A6xxMarker::RM6_DIRECT_RENDER)
}

/// Dwords [`visibility_override`] takes.
pub const VISIBILITY_OVERRIDE_DWORDS: usize = 2;

/// CP_SET_VISIBILITY_OVERRIDE: `on`, draws that use the visibility
/// stream are drawn whatever it says (no binning pass ran); off, they
/// obey the stream CP_SET_BIN_DATA5 selected.
pub fn visibility_override<S: PacketSink>(s: &mut S, on: bool) -> Result<(), S::Error> {
    let dw = S::field(packets::CpSetVisibilityOverrideDw0 { r#override: on }.try_to_raw())?;
    s.packet(Opcode::CP_SET_VISIBILITY_OVERRIDE, &[dw]);
    Ok(())
}

/// The offsets of a draw's vertices and instances: VFD_INDEX_OFFSET is
/// added to each index (Vulkan's firstVertex, or vertexOffset of an
/// indexed draw) and VFD_INSTANCE_START_OFFSET is the first instance.
pub fn draw_offsets<S: PacketSink>(
    s: &mut S,
    vertex_offset: i32,
    first_instance: u32,
) -> Result<(), S::Error> {
    s.reg(&regs::VfdIndexOffset(vertex_offset as u32))?;
    s.reg(&regs::VfdInstanceStartOffset(first_instance))
}

/// What a draw draws, and whether a bin may skip it.
#[derive(Clone, Copy, Debug)]
pub struct Primitive {
    pub ty: PcDiPrimtype,
    /// USE_VISIBILITY for a render pass's draws, IGNORE_VISIBILITY for a
    /// draw no binning pass can have seen.
    pub visibility: PcDiVisCullMode,
}

impl Primitive {
    /// A draw of a render pass: skipped in a bin whose visibility stream
    /// says it covers none of the bin.
    pub fn in_pass(ty: PcDiPrimtype) -> Primitive {
        Primitive {
            ty,
            visibility: PcDiVisCullMode::USE_VISIBILITY,
        }
    }

    /// A draw drawn whatever any visibility stream says.
    pub fn always(ty: PcDiPrimtype) -> Primitive {
        Primitive {
            ty,
            visibility: PcDiVisCullMode::IGNORE_VISIBILITY,
        }
    }
}

/// The index size field of an auto-generated draw: no index buffer.
const AUTO_INDEX_SIZE: A4xxIndexSize = A4xxIndexSize(3);

/// The draw initiator, the first dword of every draw packet.
#[inline]
fn initiator<S: PacketSink>(
    primitive: Primitive,
    source_select: PcDiSrcSel,
    index_size: A4xxIndexSize,
) -> Result<u32, S::Error> {
    S::field(
        packets::CpDrawIndxOffsetDw0 {
            prim_type: primitive.ty,
            source_select,
            vis_cull: primitive.visibility,
            index_size,
            ..Default::default()
        }
        .try_to_raw(),
    )
}

/// CP_DRAW_INDX_OFFSET of `count` auto-generated indices, `instances`
/// times.
pub fn draw_auto<S: PacketSink>(
    s: &mut S,
    primitive: Primitive,
    count: u32,
    instances: u32,
) -> Result<(), S::Error> {
    let dw0 = initiator::<S>(
        primitive,
        PcDiSrcSel::DI_SRC_SEL_AUTO_INDEX,
        AUTO_INDEX_SIZE,
    )?;
    s.packet(Opcode::CP_DRAW_INDX_OFFSET, &[dw0, instances, count]);
    Ok(())
}

/// CP_DRAW_INDIRECT: a draw of auto-generated indices whose counts and
/// offsets the CP reads at `command` (a VkDrawIndirectCommand: vertex
/// count, instance count, first vertex, first instance).
pub fn draw_indirect<S: PacketSink>(
    s: &mut S,
    primitive: Primitive,
    command: u64,
) -> Result<(), S::Error> {
    let dw0 = initiator::<S>(
        primitive,
        PcDiSrcSel::DI_SRC_SEL_AUTO_INDEX,
        AUTO_INDEX_SIZE,
    )?;
    let [lo, hi] = lo_hi(command);
    s.packet(Opcode::CP_DRAW_INDIRECT, &[dw0, lo, hi]);
    Ok(())
}

/// CP_DRAW_INDX_INDIRECT: an indexed draw from `indices` whose counts and
/// offsets the CP reads at `command` (a VkDrawIndexedIndirectCommand:
/// index count, instance count, first index, vertex offset, first
/// instance).
pub fn draw_indexed_indirect<S: PacketSink>(
    s: &mut S,
    primitive: Primitive,
    indices: IndexBuffer,
    command: u64,
) -> Result<(), S::Error> {
    let dw0 = initiator::<S>(primitive, PcDiSrcSel::DI_SRC_SEL_DMA, indices.size)?;
    let [base_lo, base_hi] = lo_hi(indices.base);
    let [lo, hi] = lo_hi(command);
    s.packet(
        Opcode::CP_DRAW_INDX_INDIRECT,
        &[dw0, base_lo, base_hi, indices.max, lo, hi],
    );
    Ok(())
}

/// Where a counted indirect draw finds its commands and its count.
#[derive(Clone, Copy, Debug)]
pub struct IndirectCount {
    /// The first command (VkDrawIndirectCommand or
    /// VkDrawIndexedIndirectCommand).
    pub commands: u64,
    /// Bytes from one command to the next.
    pub stride: u32,
    /// The dword holding how many draws to make.
    pub count: u64,
    /// The most draws made, whatever the count in memory says.
    pub max_draws: u32,
}

/// CP_DRAW_INDIRECT_MULTI with an INDIRECT_COUNT opcode: the CP reads the
/// draw count at `draws.count`, then makes min(count, DRAW_COUNT) draws,
/// each from its command `stride` bytes after the last (with VFD_INDEX_OFFSET
/// and VFD_INSTANCE_START_OFFSET set from it). Indexed when `indices` is
/// given. DST_OFF is 0: no vertex-shader const is written per draw.
///
/// A CP_WAIT_FOR_ME goes first: the a650 firmware waits for pending
/// CP_WAIT_FOR_IDLEs before reading the draw commands but not before
/// reading the count (Turnip's tu_CmdDrawIndirectCount), so a count a
/// barrier just made visible could otherwise be read stale.
pub fn draw_indirect_count<S: PacketSink>(
    s: &mut S,
    primitive: Primitive,
    indices: Option<IndexBuffer>,
    draws: IndirectCount,
) -> Result<(), S::Error> {
    let (dw0, opcode) = match indices {
        Some(ib) => (
            initiator::<S>(primitive, PcDiSrcSel::DI_SRC_SEL_DMA, ib.size)?,
            A6xxDrawIndirectOpcode::INDIRECT_OP_INDIRECT_COUNT_INDEXED,
        ),
        None => (
            initiator::<S>(
                primitive,
                PcDiSrcSel::DI_SRC_SEL_AUTO_INDEX,
                AUTO_INDEX_SIZE,
            )?,
            A6xxDrawIndirectOpcode::INDIRECT_OP_INDIRECT_COUNT,
        ),
    };
    let dw1 = S::field(packets::CpDrawIndirectMultiDw1 { opcode, dst_off: 0 }.try_to_raw())?;
    let mut payload = vec![dw0, dw1, draws.max_draws];
    if let Some(ib) = indices {
        payload.extend(lo_hi(ib.base));
        payload.push(ib.max);
    }
    payload.extend(lo_hi(draws.commands));
    payload.extend(lo_hi(draws.count));
    payload.push(draws.stride);
    s.packet(Opcode::CP_WAIT_FOR_ME, &[]);
    s.packet(Opcode::CP_DRAW_INDIRECT_MULTI, &payload);
    Ok(())
}

/// An index buffer as a draw reads it.
#[derive(Clone, Copy, Debug)]
pub struct IndexBuffer {
    pub size: A4xxIndexSize,
    /// Where the indices start (the buffer's address plus its offset).
    pub base: u64,
    /// How many indices the buffer holds from `base`: the draw reads no
    /// further.
    pub max: u32,
}

/// CP_DRAW_INDX_OFFSET of `count` indices from `indices`, from index
/// `first`, `instances` times.
pub fn draw_indexed<S: PacketSink>(
    s: &mut S,
    primitive: Primitive,
    indices: IndexBuffer,
    first: u32,
    count: u32,
    instances: u32,
) -> Result<(), S::Error> {
    let dw0 = initiator::<S>(primitive, PcDiSrcSel::DI_SRC_SEL_DMA, indices.size)?;
    let [lo, hi] = lo_hi(indices.base);
    s.packet(
        Opcode::CP_DRAW_INDX_OFFSET,
        &[dw0, instances, count, first, lo, hi, indices.max],
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::StateWriter;

    #[test]
    fn an_auto_index_draw_is_three_dwords() {
        let mut w = StateWriter::new(Chip::A6xx);
        draw_auto(&mut w, Primitive::always(PcDiPrimtype::DI_PT_TRILIST), 3, 2).unwrap();
        // adreno_pm4.xml: PRIM_TYPE bits 0-5 (TRILIST = 4), SOURCE_SELECT
        // bits 6-7 (AUTO_INDEX = 2), VIS_CULL bits 8-9 (IGNORE = 0),
        // INDEX_SIZE bits 10-11; CP_DRAW_INDX_OFFSET is opcode 0x38.
        assert_eq!(w.dwords[1], 4 | 2 << 6 | 3 << 10);
        assert_eq!(&w.dwords[2..], &[2, 3]);
        assert_eq!(w.dwords[0] >> 16 & 0x7f, 0x38);
    }

    #[test]
    fn a_pass_draw_uses_visibility_and_the_override_turns_it_off() {
        let mut w = StateWriter::new(Chip::A6xx);
        draw_auto(
            &mut w,
            Primitive::in_pass(PcDiPrimtype::DI_PT_TRILIST),
            3,
            1,
        )
        .unwrap();
        // a660 triangle_gmem.log's draw: { PRIM_TYPE = DI_PT_TRILIST |
        // SOURCE_SELECT = DI_SRC_SEL_AUTO_INDEX | VIS_CULL = USE_VISIBILITY
        // | INDEX_SIZE = 0x3 }, USE_VISIBILITY being 1 in bits 8-9.
        assert_eq!(w.dwords[1], 4 | 2 << 6 | 1 << 8 | 3 << 10);
        let mut w = StateWriter::new(Chip::A7xx);
        visibility_override(&mut w, true).unwrap();
        // The same stream before its draws: 70640001 00000001
        // (CP_SET_VISIBILITY_OVERRIDE, opcode 0x64, OVERRIDE bit 0).
        assert_eq!(w.dwords.len(), VISIBILITY_OVERRIDE_DWORDS);
        assert_eq!(w.dwords[0] >> 16 & 0x7f, 0x64);
        assert_eq!(w.dwords[1], 1);
    }

    #[test]
    fn indirect_draws_name_their_command_and_index_buffer() {
        let mut w = StateWriter::new(Chip::A7xx);
        draw_indirect(
            &mut w,
            Primitive::always(PcDiPrimtype::DI_PT_TRILIST),
            0x1_2345_6780,
        )
        .unwrap();
        // adreno_pm4.xml: CP_DRAW_INDIRECT is opcode 0x28, then the
        // initiator and the command's address.
        assert_eq!(w.dwords[0] >> 16 & 0x7f, 0x28);
        assert_eq!(&w.dwords[1..], &[4 | 2 << 6 | 3 << 10, 0x2345_6780, 1]);
        let mut w = StateWriter::new(Chip::A6xx);
        let indices = IndexBuffer {
            size: A4xxIndexSize::INDEX4_SIZE_32_BIT,
            base: 0x8000,
            max: 12,
        };
        draw_indexed_indirect(
            &mut w,
            Primitive::always(PcDiPrimtype::DI_PT_TRILIST),
            indices,
            0x9000,
        )
        .unwrap();
        // CP_DRAW_INDX_INDIRECT (0x29): initiator (DI_SRC_SEL_DMA = 0,
        // INDEX4_SIZE_32_BIT = 2), index base, max indices, command address.
        assert_eq!(w.dwords[0] >> 16 & 0x7f, 0x29);
        assert_eq!(&w.dwords[1..], &[4 | 2 << 10, 0x8000, 0, 12, 0x9000, 0]);
    }

    #[test]
    fn counted_indirect_draws_read_their_count_from_memory() {
        let draws = IndirectCount {
            commands: 0x9000,
            stride: 24,
            count: 0x1_0000_0040,
            max_draws: 3,
        };
        let mut w = StateWriter::new(Chip::A6xx);
        draw_indirect_count(
            &mut w,
            Primitive::always(PcDiPrimtype::DI_PT_TRILIST),
            None,
            draws,
        )
        .unwrap();
        // adreno_pm4.xml: CP_DRAW_INDIRECT_MULTI is opcode 0x2a; OPCODE
        // INDIRECT_OP_INDIRECT_COUNT (6) in bits 0-3 of dword 1, DST_OFF 0;
        // DRAW_COUNT, INDIRECT, INDIRECT_COUNT, STRIDE.
        // CP_WAIT_FOR_ME (0x13) first, with no payload.
        assert_eq!(w.dwords[0] >> 16 & 0x7f, 0x13);
        assert_eq!(w.dwords[1] >> 16 & 0x7f, 0x2a);
        assert_eq!(
            &w.dwords[2..],
            &[4 | 2 << 6 | 3 << 10, 6, 3, 0x9000, 0, 0x40, 1, 24]
        );
        let indices = IndexBuffer {
            size: A4xxIndexSize::INDEX4_SIZE_16_BIT,
            base: 0x8000,
            max: 12,
        };
        let mut w = StateWriter::new(Chip::A7xx);
        draw_indirect_count(
            &mut w,
            Primitive::always(PcDiPrimtype::DI_PT_TRILIST),
            Some(indices),
            draws,
        )
        .unwrap();
        // INDIRECT_OP_INDIRECT_COUNT_INDEXED (7): INDEX, MAX_INDICES before
        // INDIRECT (INDEX4_SIZE_16_BIT = 1, DI_SRC_SEL_DMA = 0).
        assert_eq!(
            &w.dwords[2..],
            &[4 | 1 << 10, 7, 3, 0x8000, 0, 12, 0x9000, 0, 0x40, 1, 24]
        );
    }
}
